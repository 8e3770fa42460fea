// Which `Host` an edge handler answers for: a DNS-rebinding page reaches it under the page's own
// name, so a Host the operator did not name (nor the adapter serve) is refused 421. Runtime-neutral.
import { RelayRefusal } from './refusal.js';
import { onWorkers } from './runtime.js';
import { literalAddress } from './targets.js';

/** `host[:port]` lower case, without a scheme's default port. */
const normalHost = (host: string) => host.toLowerCase().replace(/:(80|443)$/, '');

/** Whether `value` is a `host[:port]` and nothing more. */
function isHost(value: string): boolean {
  try {
    const u = new URL(`http://${value}`);
    return value !== '' && u.pathname === '/' && !u.search && !u.username && !/[/?#@\s]/.test(value);
  } catch {
    return false;
  }
}

/** A Host no DNS answer can give a rebinding page: an IP literal or `localhost`. */
function unbindable(host: string): boolean {
  try {
    const name = new URL(`http://${host}`).hostname;
    return name === 'localhost' || literalAddress(name) !== null;
  } catch {
    return false;
  }
}

/**
 * The Host check: nothing when the request's Host is `publicUrl`'s, one of `allowedHosts` or the
 * one the adapter serves (`info.host`); knowing none of them, any on Cloudflare Workers (routed
 * by host), else IP literals and `localhost` only. RelayRefusal 421 otherwise. A malformed
 * `allowedHosts` entry throws here (the operator's mistake, found at start).
 */
export function hostCheck(options: {
  publicUrl?: string;
  allowedHosts?: readonly string[];
}): (request: Request, info: { host?: string }) => void {
  for (const h of options.allowedHosts ?? [])
    if (!isHost(h)) throw new TypeError(`relay allowedHosts entry "${h}" is not a host[:port] (no scheme, no path)`);
  const hosts = new Set(
    [...(options.allowedHosts ?? []), ...(options.publicUrl ? [new URL(options.publicUrl).host] : [])].map(normalHost),
  );
  return (request, info) => {
    const host = normalHost(request.headers.get('host') ?? new URL(request.url).host);
    if (hosts.has(host) || (info.host !== undefined && host === normalHost(info.host))) return;
    if (hosts.size === 0 && info.host === undefined && (onWorkers() || unbindable(host))) return;
    throw new RelayRefusal(421, 'this relay does not answer for that Host (see its publicUrl and allowedHosts)');
  };
}
