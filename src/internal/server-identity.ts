// What a server says about itself, as the manager and the explorer show it: its icon, title,
// version and description from the initialize result (2025-11-25 `Implementation`), and the
// protocol revision in words. Everything here is the server's text: bound as text, never HTML;
// an icon only as an inline raster `data:` URL (a remote one would be fetched unseen).
import { css, html, nothing } from 'lit';
import type { ConnectionState, Implementation, ServerCatalogue } from '../core/index.js';

/** Inline raster images only: anything else (SVG, remote URLs) is never shown. */
export const RASTER = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+=*$/;

/** The words for each kind of connection; `{v}` is the revision. Hosts may replace them. */
export const REVISION_STRINGS = {
  revisionStateless: 'MCP {v} (stateless)',
  revisionSession: 'MCP {v} (with a session)',
  revisionNoSession: 'MCP {v} (no session)',
  revisionSse: 'MCP {v} over HTTP + SSE (legacy transport)',
  revisionJsonrpc: 'Plain JSON-RPC (no MCP handshake)',
};
export type RevisionStrings = typeof REVISION_STRINGS;

/** What a revision is said from: the connection's or a catalogue's fields. */
type RevisionFacts = Pick<ServerCatalogue, 'protocolVersion' | 'era' | 'transport' | 'sessionId'>;

/**
 * The revision in words: "MCP 2026-07-28 (stateless)", "MCP 2025-11-25 (with a session)", "MCP
 * 2024-11-05 over HTTP + SSE (legacy transport)", "Plain JSON-RPC (no MCP handshake)"; '' when
 * nothing is known.
 */
export function revisionWords(facts: RevisionFacts, t: (k: keyof RevisionStrings) => string): string {
  if (facts.era === 'jsonrpc' || facts.transport === 'jsonrpc') return t('revisionJsonrpc');
  const v = facts.protocolVersion;
  if (!v) return '';
  const key =
    facts.era === 'modern'
      ? 'revisionStateless'
      : facts.transport === 'sse'
        ? 'revisionSse'
        : facts.sessionId
          ? 'revisionSession'
          : 'revisionNoSession';
  return t(key).replace('{v}', v);
}

/** The revision of a connected server: its connection's facts, with the catalogue's session id. */
export function connectionRevision(
  c: ConnectionState | undefined,
  cat: ServerCatalogue | undefined,
  t: (k: keyof RevisionStrings) => string,
): string {
  if (c?.status !== 'connected' || !c.era) return '';
  return revisionWords({ ...c, sessionId: cat?.sessionId }, t);
}

/** The server's title (its `title`, else its `name`), with its version. */
export function serverTitle(info: Implementation | undefined): string {
  if (!info) return '';
  const title = (info.title ?? '').trim() || info.name;
  return info.version ? `${title} ${info.version}` : title;
}

/** The server's icon, when it gave an inline raster one (decorative: the title says who it is). */
export function serverIcon(info: Implementation | undefined) {
  const icons = (info as { icons?: { src?: unknown }[] } | undefined)?.icons;
  const found = Array.isArray(icons) ? icons.find((i) => typeof i?.src === 'string' && RASTER.test(i.src)) : undefined;
  return found ? html`<img class="server-icon" part="server-icon" src=${found.src as string} alt="" />` : nothing;
}

/** The server's one-line description (`description` of its Implementation), or ''. */
export function serverDescription(info: Implementation | undefined): string {
  const d = (info as { description?: unknown } | undefined)?.description;
  return typeof d === 'string' ? d.trim() : '';
}

/** The server's website, when it is an http(s) URL (shown as the URL itself: the user sees where it goes). */
export function serverWebsite(info: Implementation | undefined): string | undefined {
  const w = (info as { websiteUrl?: unknown } | undefined)?.websiteUrl;
  if (typeof w !== 'string') return undefined;
  try {
    const u = new URL(w);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export const identityStyles = css`
  .server-icon {
    width: 1.25rem;
    height: 1.25rem;
    object-fit: contain;
    flex: none;
  }
  .one-line {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    min-width: 0;
  }
  .instructions {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0.3rem 0 0;
    max-height: 16rem;
    overflow: auto;
    padding: 0.4rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_subtle);
  }
`;
