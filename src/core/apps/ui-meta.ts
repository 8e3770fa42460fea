// MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): what a tool or a UI resource declares in
// `_meta.ui`, read defensively (server data is untrusted). Framework-free: the model-facing tool
// list and the call pipeline use it; the view itself lives in src/apps and src/elements.
import type { Tool } from '@modelcontextprotocol/client';

// The extension's identifier (`io.modelcontextprotocol/ui`) is declared by the session layer
// (session/sdk.ts); the one MIME type a UI resource may have is checked by src/apps.

/** Who may call a tool: the model, the tool's own app (view), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** What a tool declares in `_meta.ui`. */
export interface ToolUi {
  /** The `ui://` resource that shows the tool's calls, when it has one. */
  readonly resourceUri?: string;
  readonly visibility: readonly ToolVisibility[];
}

// What UI resources declare (`_meta.ui` csp, permissions, …) is read by the view code itself
// (src/apps/resource-meta.ts): a page without views never loads it.

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
  return { ...(resourceUri && { resourceUri }), visibility };
}

/** Whether the model may see and call the tool (`visibility` includes `"model"`). */
export const modelVisible = (tool: Pick<Tool, '_meta'>): boolean => toolUi(tool).visibility.includes('model');
