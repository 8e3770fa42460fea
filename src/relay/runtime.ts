// What the relay and the backend hub need to know of the runtime they run on. Runtime-neutral.

/** Cloudflare Workers says so in `navigator.userAgent` (workerd): there `CF-Connecting-IP` is Cloudflare's own. */
export const onWorkers = (): boolean =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
