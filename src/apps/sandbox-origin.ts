// Where a server's views are shown in sandbox mode. A plain `sandboxUrl` is one origin for every
// server: the proxy keeps each view in an opaque-origin frame (no storage, no reach into another
// view). A template with `{server}` in its host name (`https://{server}.sandbox.example.com/`)
// gives each server an origin of its own, named by a DNS-safe hash of the server's id and URL:
// only then may the view be same-origin with its proxy (storage, cookies, a real origin), since
// all it can reach there is its own server's.
import { McpAppError } from './resources.js';

export const SERVER_PLACEHOLDER = '{server}';

/** The sandbox page for one server's views, and whether its view may be same-origin with the proxy. */
export interface SandboxPage {
  readonly url: URL;
  readonly perServer: boolean;
}

const labels = new Map<string, Promise<string>>();

/** 32 lowercase hex characters of SHA-256(`key`): a DNS label. */
async function hashLabel(key: string): Promise<string> {
  if (!globalThis.crypto?.subtle)
    throw new McpAppError('bad-sandbox', 'A sandbox origin per server needs a secure context (crypto.subtle).');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The page for `server`'s views under `sandboxUrl` (a URL, or a template with `{server}`).
 * McpAppError('bad-sandbox') for a template whose origin would not vary by server.
 */
export async function sandboxPage(sandboxUrl: string, server: { id: string; url?: string }): Promise<SandboxPage> {
  if (!sandboxUrl.includes(SERVER_PLACEHOLDER)) return { url: new URL(sandboxUrl), perServer: false };
  const key = `${server.id}\n${server.url ?? ''}`;
  // the hash once per server: a view starts without waiting on it again
  let label = labels.get(key);
  if (!label) labels.set(key, (label = hashLabel(key)));
  const at = (s: string) => new URL(sandboxUrl.replaceAll(SERVER_PLACEHOLDER, s));
  // the whole first label: the proxy then knows every other server's sandbox (the rest of its
  // name) and refuses to let a view frame one (csp.ts allowedFrameDomains)
  if (
    at('a').origin === at('b').origin ||
    !at('a').hostname.startsWith('a.') ||
    at('b').hostname.slice(2) !== at('a').hostname.slice(2)
  )
    throw new McpAppError(
      'bad-sandbox',
      `The sandbox URL template must put ${SERVER_PLACEHOLDER} in the host name, as its whole first label (one origin per server).`,
    );
  try {
    return { url: at(await label), perServer: true };
  } catch (e) {
    labels.delete(key);
    throw e;
  }
}
