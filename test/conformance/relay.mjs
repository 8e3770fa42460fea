// The conformance client's relay mode (MCP_CONFORMANCE_VIA_RELAY=1): our own relay, built
// (dist/relay/node), served in this process on 127.0.0.1 port 0, inside the same network namespace
// as the scenario's servers, and a hub that reaches them only through it, as a page does whose
// servers send no CORS. The relay forwards to loopback http only because it is told to (`allow`):
// the scenario's MCP server and its authorization servers listen on ports chosen per scenario.
//
// Proof that the run went through the relay, not around it (client.mjs fails the scenario
// otherwise): every request the hub makes is checked to be addressed to the relay's origin (its
// `fetch` option, and `globalThis.fetch` too, for any code that would use it instead; the relay's
// own upstream requests use node:http), and the relay must have forwarded at least one. The user's
// browser (`open` in client.mjs, `browserFetch` here) still goes to the authorization endpoint
// itself: a browser navigates there (the relay leaves that endpoint alone: src/relay/oauth.ts).
import { createNodeRelay, serveHandler } from '../../dist/relay/node/index.js';

/** Node's own fetch, before relay mode replaces it: only the user's browser (`open`) uses it. */
const realFetch = globalThis.fetch;

/** The page the hub plays: a browser's cross-origin fetch carries its Origin, and the relay answers it. */
export const PAGE_ORIGIN = 'http://127.0.0.1:3000';

/**
 * Start the relay. Resolves with its URL, the fetch the hub must use (it refuses any URL outside
 * the relay), what the relay logged, and what the hub tried to reach directly.
 */
export async function startConformanceRelay() {
  /** The relay's onLog entries: method, upstream origin, status, refusal (never a header or token). */
  const entries = [];
  /** URLs the hub asked for that are not the relay's: each one is a failure of the scenario. */
  const direct = [];
  let handler;
  // the relay is made once its own URL is known, so the URLs it writes (a challenge's
  // resource_metadata, a legacy SSE endpoint) name the address it really listens on
  const served = await serveHandler((request, info) => handler(request, info));
  handler = createNodeRelay({
    allow: ['http://localhost:*', 'http://127.0.0.1:*'],
    origins: [PAGE_ORIGIN],
    publicUrl: served.url,
    onLog: (entry) => entries.push(entry),
  });
  const prefix = `${served.url}/`;
  /** The hub's `fetch`: a request outside the relay is refused (and recorded) before it leaves. */
  const fetchViaRelay = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(prefix)) {
      direct.push(url);
      return Promise.reject(
        new TypeError(`conformance relay mode: the hub fetched ${url} directly, not through the relay`),
      );
    }
    // a page's fetch to another origin says where it comes from; Node's does not by itself
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((v, k) => headers.set(k, v));
    headers.set('origin', PAGE_ORIGIN);
    return realFetch(input, { ...init, headers });
  };
  globalThis.fetch = fetchViaRelay;
  return {
    url: served.url,
    fetch: fetchViaRelay,
    /** The user's browser, which navigates to the authorization endpoint itself. */
    browserFetch: realFetch,
    entries,
    direct,
    /** The relay's part of the verdict: problems to report (none when every request was relayed). */
    problems() {
      const out = direct.map((u) => `relay mode: the hub fetched ${u} directly, not through the relay`);
      if (entries.length === 0) out.push('relay mode: the relay forwarded no request');
      return out;
    },
    /** One line for stderr: how many requests crossed, to which upstreams, and what was refused. */
    summary() {
      const targets = [...new Set(entries.map((e) => e.target).filter(Boolean))].join(', ');
      const refused = entries
        .filter((e) => e.refused)
        .map((e) => `${e.method} ${e.target ?? '?'} ${e.status}: ${e.refused}`);
      return `relay: ${entries.length} requests relayed to ${targets || 'nothing'}${refused.length ? `; refused: ${refused.join('; ')}` : ''}`;
    },
    close: () => {
      globalThis.fetch = realFetch;
      return served.close();
    },
  };
}
