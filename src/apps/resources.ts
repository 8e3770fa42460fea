// A view's HTML: `resources/read` of its `ui://` URI on its own server, checked (MIME type
// `text/html;profile=mcp-app`, size), with `_meta.ui` from the listing overlaid by the read
// result's (the read result wins), cached per hub, server and URI until the server's catalogue
// changes (a reconnect or a list_changed re-lists it).
import { McpElementsError, type McpHub } from '../core/index.js';
import { uiUri, type UiResourceMeta } from '../core/apps/ui-meta.js';
import { isUiMime, mergeUiMeta, uiResourceMeta } from './resource-meta.js';

/** A view's resource, ready to show. */
export interface UiResource {
  readonly serverId: string;
  readonly uri: string;
  readonly html: string;
  readonly meta: UiResourceMeta;
}

/** Largest view document accepted (characters). */
export const MAX_VIEW_HTML = 5 * 1024 * 1024;

/** An MCP Apps failure: `not-an-app` (wrong MIME type, no HTML, too large), `bad-uri`. */
export class McpAppError extends McpElementsError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'McpAppError';
  }
}

const cache = new WeakMap<McpHub, Map<string, { catalogue: unknown; resource: Promise<UiResource> }>>();

function decodeBase64(b64: string): string {
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The view at `uri` of `serverId` (connecting when needed); McpAppError when it is not one. */
export function loadUiResource(hub: McpHub, serverId: string, uri: string): Promise<UiResource> {
  if (!uiUri(uri))
    return Promise.reject(new McpAppError('bad-uri', `"${String(uri).slice(0, 100)}" is not a ui:// URI.`));
  let perHub = cache.get(hub);
  if (!perHub) cache.set(hub, (perHub = new Map()));
  const key = `${serverId}\u0000${uri}`;
  const catalogue = hub.catalogue(serverId);
  const hit = perHub.get(key);
  if (hit && hit.catalogue === catalogue) return hit.resource;
  const resource = read(hub, serverId, uri);
  perHub.set(key, { catalogue, resource });
  // a failure is not kept: the next view tries again
  resource.catch(() => perHub.get(key)?.resource === resource && perHub.delete(key));
  return resource;
}

async function read(hub: McpHub, serverId: string, uri: string): Promise<UiResource> {
  // a view shown again after a reload comes before any connect
  if (hub.status(serverId).status !== 'connected') await hub.connect(serverId);
  const result = await hub.client(serverId).readResource(uri);
  const contents = Array.isArray(result?.contents) ? result.contents : [];
  const content =
    contents.find((c) => c && c.uri === uri && isUiMime(c.mimeType)) ?? contents.find((c) => isUiMime(c?.mimeType));
  if (!content)
    throw new McpAppError(
      'not-an-app',
      `The resource ${uri} is not an MCP App view (its MIME type must be text/html;profile=mcp-app).`,
    );
  const html =
    'text' in content && typeof content.text === 'string'
      ? content.text
      : 'blob' in content && typeof content.blob === 'string'
        ? decodeBase64(content.blob)
        : undefined;
  if (html === undefined) throw new McpAppError('not-an-app', `The resource ${uri} has no HTML.`);
  if (html.length > MAX_VIEW_HTML)
    throw new McpAppError(
      'not-an-app',
      `The view ${uri} is ${html.length} characters; at most ${MAX_VIEW_HTML} are shown.`,
    );
  const listed = hub.catalogue(serverId)?.resources.find((r) => r.uri === uri);
  const meta = mergeUiMeta(uiResourceMeta(listed?._meta), uiResourceMeta(content._meta));
  return Object.freeze({ serverId, uri, html, meta });
}
