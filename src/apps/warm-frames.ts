// Sandbox proxy frames loaded ahead of a server's next view. Once a view of a server has started,
// one more proxy frame for that server's sandbox page loads hidden at the end of the page; the
// next view takes it instead of making a frame of its own, so the proxy is (nearly) ready when
// the view is. Only where `Element.moveBefore` keeps a frame's document as it moves (Chromium 133+,
// Firefox 144+); elsewhere (WebKit 2.50) a moved frame would load again, so none is kept.
// A warm frame is the proxy page alone: it holds no view, and its one message, the proxy's
// `sandbox-proxy-ready`, is noted here (from that frame's window, with the sandbox's origin) so the
// view that takes the frame knows its proxy already announced itself.

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
/** Warm frames kept per page at most (one per server and set of permissions); the oldest goes. */
export const MAX_WARM_FRAMES = 4;

export interface WarmFrame {
  readonly frame: HTMLIFrameElement;
  /** The proxy sent its `sandbox-proxy-ready` before the frame was taken. */
  readonly ready: boolean;
}

interface Entry {
  frame: HTMLIFrameElement;
  ready: boolean;
  stop: () => void;
}

const pool = new Map<string, Entry>();
let shelf: { host: HTMLElement; root: ShadowRoot } | undefined;

/**
 * Where warm frames wait: a hidden <mcp-warm-frames> at the end of the page, the frames in its
 * shadow root. Frames in a shadow tree are not in `window.frames`, so no view can name one (a view
 * of the same server is of the same origin as its proxy, and could script a frame it can name).
 */
function shelfOf(): ShadowRoot {
  if (!shelf?.host.isConnected) {
    const host = document.createElement('mcp-warm-frames');
    host.hidden = true;
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    // hidden even where the page's own styles would show it
    root.innerHTML = '<style>:host{display:none!important}</style>';
    shelf = { host, root };
  }
  return shelf.root;
}

type Movable = Element & { moveBefore(node: Node, child: Node | null): void };

/** Whether a frame can move into a view's box without loading again. */
export const canKeepFrames = (): boolean => typeof (Element.prototype as Partial<Movable>).moveBefore === 'function';

const keyOf = (url: string, allow: string) => `${url}\n${allow}`;

/** The sandbox proxy's flags: it needs a real origin to frame the view (spec: allow-scripts allow-same-origin). */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/** A view's frame: `sandbox` and `allow` are fixed on its first document, so they are set first. */
export function viewFrame(sandbox: string, allow: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', sandbox);
  frame.setAttribute('allow', allow);
  frame.setAttribute('referrerpolicy', 'origin');
  return frame;
}

/** Load a proxy frame for `url` (the sandbox page with `?host=`) and `allow`, unless one waits. */
export function warmFrame(url: string, allow: string): void {
  const key = keyOf(url, allow);
  if (!canKeepFrames() || !document.body) return;
  // one that waits still (a host may have removed the shelf, and its frames with it)
  if (pool.get(key)?.frame.isConnected) return;
  drop(key);
  if (pool.size >= MAX_WARM_FRAMES) drop(pool.keys().next().value!);
  // no tabindex or aria-hidden: the shelf keeps it out of focus and the accessibility tree, and
  // the view that takes it must be reachable (those attributes would move in with it)
  const frame = viewFrame(PROXY_SANDBOX, allow);
  const origin = new URL(url).origin;
  const entry: Entry = { frame, ready: false, stop: () => removeEventListener('message', listen, true) };
  function listen(e: MessageEvent) {
    if (e.source !== frame.contentWindow || !e.source) return;
    e.stopImmediatePropagation();
    if (e.origin === origin && (e.data as { method?: unknown } | null)?.method === PROXY_READY) entry.ready = true;
  }
  addEventListener('message', listen, true);
  frame.src = url;
  pool.set(key, entry);
  shelfOf().append(frame);
}

/** Take the warm frame for `url` and `allow` into `box` (moved, its document kept), if one waits. */
export function takeWarmFrame(url: string, allow: string, box: Element): WarmFrame | undefined {
  const key = keyOf(url, allow);
  const entry = pool.get(key);
  if (!entry) return undefined;
  pool.delete(key);
  entry.stop();
  try {
    (box as Movable).moveBefore(entry.frame, null);
  } catch {
    // not movable here (another document, a box not in the page): a frame of its own instead
    entry.frame.remove();
    return undefined;
  }
  return { frame: entry.frame, ready: entry.ready };
}

function drop(key: string) {
  const entry = pool.get(key);
  pool.delete(key);
  entry?.stop();
  entry?.frame.remove();
}

/** Remove every warm frame (tests; a host tearing its page down). */
export function dropWarmFrames(): void {
  for (const key of [...pool.keys()]) drop(key);
}
