// What a UI resource declares in `_meta.ui` (SEP-1865), read defensively: only well-formed origins
// for the CSP, only known permissions. Used by the view host and by the sandbox proxy page.
import type { UiResourceMeta } from '../core/apps/ui-meta.js';

/** The one MIME type a UI resource may have. */
export const UI_MIME = 'text/html;profile=mcp-app';

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

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
