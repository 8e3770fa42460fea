// Shared by the Node host tests (node-host.test.mjs, node-sign-in.test.mjs): a hub the way a host
// without a browser makes one (documented API only: MemoryStorage, events on the hub), and the
// user's browser at the authorization server for its sign-ins.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { McpHub, MemoryStorage } = await import(path.join(root, 'dist/core/index.js'));

/** The redirect URI the hubs use: never fetched (`browse` stops at it). */
export const REDIRECT = 'http://127.0.0.1:9/callback';

let n = 0;
export const unique = (p) => `${p}-${process.pid}-${n++}-${Math.random().toString(36).slice(2, 6)}`;

/** A hub with records in memory and events on itself, its store named after `prefix`. */
export function nodeHub(prefix, options = {}) {
  return new McpHub({
    storeName: unique(prefix),
    storage: new MemoryStorage(),
    eventTarget: null,
    broadcast: false,
    redirectUrl: REDIRECT,
    ...options,
  });
}

/** The user's browser at the authorization server: follows its redirects (cookies kept) back to REDIRECT. */
export async function browse(authorizationUrl) {
  const jar = new Map();
  let url = authorizationUrl;
  for (let hops = 0; hops < 20; hops++) {
    if (url.startsWith(REDIRECT)) return url;
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (!location) throw new Error(`${url} answered ${res.status} without a redirect`);
    url = new URL(location, url).href;
  }
  throw new Error('more than 20 redirects');
}
