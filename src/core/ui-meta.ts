// MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): what a tool or a UI resource declares in
// `_meta.ui`, read defensively (server data is untrusted). Framework-free: the model-facing tool
// list and the call pipeline use it; the view itself lives in src/apps and src/elements.
import type { Tool } from '@modelcontextprotocol/client';

/** The extension's identifier in client capabilities (`capabilities.extensions`). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one MIME type a UI resource may have. */
export const UI_MIME = 'text/html;profile=mcp-app';

/** Who may call a tool: the model, the tool's own app (view), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** What a tool declares in `_meta.ui`. */
export interface ToolUi {
  /** The `ui://` resource that shows the tool's calls, when it has one. */
  readonly resourceUri?: string;
  readonly visibility: readonly ToolVisibility[];
}

/** Domains a view declared for its Content-Security-Policy (only well-formed origins are kept). */
export interface UiCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** Browser permissions a view asked for (hosts may honour them with the iframe's `allow`). */
export interface UiPermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/** What a UI resource declares in `_meta.ui` (listing and read result; the read result wins). */
export interface UiResourceMeta {
  readonly csp?: UiCsp;
  readonly permissions?: UiPermissions;
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

const MAX_URI = 2048;
const BOTH: readonly ToolVisibility[] = Object.freeze(['model', 'app']);

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A `ui://` URI of sane length, else undefined. */
export function uiUri(v: unknown): string | undefined {
  return typeof v === 'string' && v.startsWith('ui://') && v.length <= MAX_URI ? v : undefined;
}

/**
 * A tool's `_meta.ui` (and the deprecated flat `_meta["ui/resourceUri"]`). A `visibility` that is
 * not a list of known values counts as empty: such a tool reaches neither the model nor an app.
 */
export function toolUi(tool: Pick<Tool, '_meta'> | undefined): ToolUi {
  const meta = record(tool?._meta);
  const ui = record(meta?.ui);
  const resourceUri = uiUri(ui?.resourceUri) ?? uiUri(meta?.['ui/resourceUri']);
  const raw = ui?.visibility;
  const visibility =
    raw === undefined ? BOTH : Array.isArray(raw) ? BOTH.filter((v) => raw.includes(v)) : ([] as ToolVisibility[]);
  return resourceUri ? { resourceUri, visibility } : { visibility };
}

/** Whether the model may see and call the tool (`visibility` includes `"model"`). */
export const modelVisible = (tool: Pick<Tool, '_meta'>): boolean => toolUi(tool).visibility.includes('model');
/** Whether the tool's own app may call it (`visibility` includes `"app"`). */
export const appVisible = (tool: Pick<Tool, '_meta'>): boolean => toolUi(tool).visibility.includes('app');

// An origin a CSP source list may name: scheme, host (a leading `*.` allowed), optional port.
// Anything else (keywords, `*`, paths, quotes, `;`, spaces) would loosen or break the policy.
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/i;
const MAX_DOMAINS = 64;

/** The well-formed origins of a declared list (at most 64); the rest dropped. */
export function cspOrigins(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((d): d is string => typeof d === 'string' && d.length <= 300 && ORIGIN.test(d)).slice(0, MAX_DOMAINS);
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** A resource's (or read content's) `_meta.ui`, keeping only what is well-formed. */
export function uiResourceMeta(meta: unknown): UiResourceMeta {
  const ui = record(record(meta)?.ui);
  if (!ui) return {};
  const out: { -readonly [K in keyof UiResourceMeta]: UiResourceMeta[K] } = {};
  const csp = record(ui.csp);
  if (csp) {
    const c: Record<string, string[]> = {};
    for (const k of CSP_KEYS) if (csp[k] !== undefined) c[k] = cspOrigins(csp[k]);
    out.csp = c;
  }
  const perms = record(ui.permissions);
  if (perms) {
    const p: Record<string, Record<string, never>> = {};
    for (const k of PERMISSION_KEYS) if (record(perms[k]) || perms[k] === true) p[k] = {};
    out.permissions = p;
  }
  if (typeof ui.domain === 'string' && ui.domain.length <= 300) out.domain = ui.domain;
  if (typeof ui.prefersBorder === 'boolean') out.prefersBorder = ui.prefersBorder;
  return out;
}

/** Listing meta overlaid with the read result's, field by field (the read result wins). */
export function mergeUiMeta(listed: UiResourceMeta, read: UiResourceMeta): UiResourceMeta {
  return { ...listed, ...read };
}

/** Whether a MIME type is the MCP App one (case and spaces around `;` ignored). */
export function isUiMime(mime: unknown): boolean {
  return typeof mime === 'string' && mime.replace(/\s+/g, '').toLowerCase() === UI_MIME;
}
