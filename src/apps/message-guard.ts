// Every message a view sends is checked before the ext-apps transport sees it: it must come from
// the view's own frame with the expected origin (the sandbox origin, or "null" for the opaque
// fallback), within a rate and a size. The official PostMessageTransport checks the source
// window only; this listener runs first (capture, registered before it) and stops the rest.

/** Limits on what one view may send. */
export interface ViewLimits {
  /** Largest message, in characters of its strings (bytes of binary data) plus its keys. */
  readonly maxMessageSize: number;
  /** Messages per second a view may keep up. */
  readonly perSecond: number;
  /** Messages a view may send at once before the rate applies. */
  readonly burst: number;
  /** Refused messages after which the view is closed. */
  readonly maxRefused: number;
}

export const VIEW_LIMITS: ViewLimits = Object.freeze({
  maxMessageSize: 4 * 1024 * 1024,
  perSecond: 50,
  burst: 200,
  maxRefused: 500,
});

const SANDBOX_METHODS = 'ui/notifications/sandbox-';
const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';

/** Whether `value` is larger than `limit` (walks it, stopping as soon as it is). */
export function exceedsSize(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (v instanceof ArrayBuffer) total += v.byteLength;
    else if (ArrayBuffer.isView(v)) total += v.byteLength;
    else if (v && typeof v === 'object') {
      if (seen.has(v)) continue;
      seen.add(v);
      for (const [k, x] of Object.entries(v)) {
        total += k.length;
        stack.push(x);
      }
    } else total += 8;
    if (total > limit) return true;
  }
  return false;
}

/**
 * Check every message from `frame()` before anything else sees it. `refused(reason, fatal)` is
 * told of each refusal; `fatal` once the view exceeded `maxRefused`. `proxied`: the frame is the
 * sandbox proxy, whose one `sandbox-proxy-ready` passes (every other `sandbox-*` message is
 * refused, as all are from an unproxied view). Returns the remover.
 */
export function guardMessages(
  frame: () => Window | null | undefined,
  origin: string,
  refused: (reason: string, fatal: boolean) => void,
  limits: ViewLimits = VIEW_LIMITS,
  proxied = false,
): () => void {
  let tokens = limits.burst;
  // the proxy announces itself once; any other sandbox-* message is not the proxy's (a view that is
  // same-origin with its proxy can make the proxy's window send anything)
  let announced = !proxied;
  let last = performance.now();
  let count = 0;
  const refuse = (e: MessageEvent, reason: string) => {
    e.stopImmediatePropagation();
    count++;
    // one line per reason kind until closed: a flood must not flood the log too
    if (count <= 5 || count === limits.maxRefused) refused(reason, count >= limits.maxRefused);
  };
  const listener = (e: MessageEvent) => {
    const win = frame();
    if (!win || e.source !== win) return;
    if (e.origin !== origin) return refuse(e, `a message from origin ${e.origin} (expected ${origin})`);
    const now = performance.now();
    tokens = Math.min(limits.burst, tokens + ((now - last) / 1000) * limits.perSecond);
    last = now;
    if (tokens < 1) return refuse(e, `more than ${limits.perSecond} messages a second`);
    tokens--;
    if (exceedsSize(e.data, limits.maxMessageSize))
      return refuse(e, `a message larger than ${limits.maxMessageSize} characters`);
    if ((e.ports?.length ?? 0) > 0) return refuse(e, 'a message carrying ports');
    const method = (e.data as { method?: unknown } | null)?.method;
    if (typeof method === 'string' && method.startsWith(SANDBOX_METHODS)) {
      if (announced || method !== PROXY_READY) return refuse(e, `a ${method} message the proxy did not send`);
      announced = true;
    }
  };
  window.addEventListener('message', listener, true);
  return () => window.removeEventListener('message', listener, true);
}
