// What an edge handler (the relay, the backend hub) needs to know of the runtime it runs on. Runtime-neutral.

/** Cloudflare Workers says so in `navigator.userAgent` (workerd): there `CF-Connecting-IP` is Cloudflare's own. */
export const onWorkers = (): boolean =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
