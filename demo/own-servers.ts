// The demo's own servers (the reference server, the protected one, Jobs, Debug) run on ports
// `npm start` picks, which may differ from one start to the next. The demo remembers which saved
// server is which of its own, and points it at this start's URL (the user's removals stand).
import type { McpHub, ServerConfigInput } from '../src/core/index.js';

const KEY = 'mcp-demo-own-servers';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

type Own = Record<string, string>;
const load = (): Own => {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Own;
  } catch {
    return {};
  }
};

/** A saved URL that is this demo server at another port: loopback, same path. */
function samePlaceOtherPort(saved: string, now: string): boolean {
  try {
    const a = new URL(saved);
    const b = new URL(now);
    return LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname) && a.pathname === b.pathname && a.port !== b.port;
  } catch {
    return false;
  }
}

/**
 * Add the demo server `role` on the first visit (`seedFlag` unset), and on every visit move the
 * saved one to `input.url` if this start gave it another port. A server the user removed is not
 * added again.
 */
export async function ownServer(hub: McpHub, role: string, seedFlag: string, input: ServerConfigInput) {
  const own = load();
  let server = own[role] ? hub.servers.get(own[role]) : undefined;
  // saved before the demo remembered its own: the one with this name at a loopback address
  server ??= hub.servers.list().find((s) => s.name === input.name && samePlaceOtherPort(s.url, input.url));
  if (!server && !localStorage.getItem(seedFlag)) {
    localStorage.setItem(seedFlag, '1');
    server = hub.servers.list().find((s) => s.url === input.url) ?? (await hub.servers.add(input));
  }
  if (!server) return;
  if (server.url !== input.url) server = await hub.servers.update(server.id, { url: input.url });
  localStorage.setItem(KEY, JSON.stringify({ ...load(), [role]: server.id }));
}
