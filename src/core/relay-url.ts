/**
 * The URL through a relay (the relay entry of this package): the upstream's scheme and host become the first
 * two path segments after the relay's URL, e.g. `https://relay.example/https/mcp.example.com/mcp`.
 */
export function relayUrlFor(relay: string, upstream: string | URL): string {
  const u = new URL(upstream);
  return `${relay.replace(/\/$/, '')}/${u.protocol.slice(0, -1)}/${u.host}${u.pathname}${u.search}`;
}
