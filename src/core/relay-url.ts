/**
 * The URL through a relay (the relay entry of this package): the upstream's scheme and host become the first
 * two path segments after the relay's URL, e.g. `https://relay.example/https/mcp.example.com/mcp`.
 */
export function relayUrlFor(relay: string, upstream: string | URL): string {
  const u = new URL(upstream);
  return `${relay.replace(/\/$/, '')}/${u.protocol.slice(0, -1)}/${u.host}${u.pathname}${u.search}`;
}

/**
 * The upstream URL a URL through `relay` names (the inverse of relayUrlFor), or undefined when
 * the URL is not in that plain path form of that relay.
 */
export function upstreamOfRelayUrl(relay: string, url: string): string | undefined {
  const prefix = `${relay.replace(/\/$/, '')}/`;
  if (!url.startsWith(prefix)) return undefined;
  const m = /^(https?)\/([^/?#]+)(\/.*)?$/.exec(url.slice(prefix.length));
  return m ? `${m[1]}://${m[2]}${m[3] ?? '/'}` : undefined;
}

/**
 * A `fetch` that sends every request through a relay, in the plain path form above (which the
 * relay forwards as is, rewriting no OAuth document), and leaves requests already addressed to
 * the relay (a challenge's `resource_metadata` the relay pointed at itself) alone. A relayed
 * server's sign-in uses it: the page sees the upstream's own URLs (issuer, endpoints, resource),
 * so the issuer and resource checks hold, while every request goes where the page can reach.
 */
export function fetchThroughRelay(relay: string, base?: typeof fetch): typeof fetch {
  const prefix = `${relay.replace(/\/$/, '')}/`;
  const map = (url: string) => (url.startsWith(prefix) ? url : relayUrlFor(relay, url));
  return (input, init) => {
    const f = base ?? globalThis.fetch;
    if (input instanceof Request) return f(new Request(map(input.url), input), init);
    return f(map(String(input)), init);
  };
}
