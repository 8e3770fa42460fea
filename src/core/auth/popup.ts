// The sign-in popup: opened synchronously in the caller's task (a popup opened after an `await`
// is blocked), its opener cut. Its own module, with nothing of the hub, so the sign-in loader can
// open it in a click before the sign-in code has loaded.
import { McpAuthError } from '../errors.js';

const POPUP = { width: 520, height: 720 };

/** `window.open` features: a popup of a fixed size, centred on this window. */
function popupFeatures(): string {
  const w = globalThis as unknown as Partial<Window>;
  const left = Math.max(0, Math.round((w.screenX ?? 0) + ((w.outerWidth ?? POPUP.width) - POPUP.width) / 2));
  const top = Math.max(0, Math.round((w.screenY ?? 0) + ((w.outerHeight ?? POPUP.height) - POPUP.height) / 2));
  return `popup=yes,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`;
}

/**
 * Open the sign-in popup on `url` (or `about:blank`, to be pointed at the URL once prepared)
 * synchronously, in the caller's task: a popup opened after an `await` is blocked. Null when
 * the browser blocked it; McpAuthError `popup-blocked` where there are no windows (Node).
 */
export function openPopup(serverId: string, url: string | undefined): Window | null {
  const w = globalThis as unknown as Partial<Window>;
  if (typeof w.open !== 'function')
    throw new McpAuthError('popup-blocked', 'Sign-in needs a browser window here; pass `open` to hub.signIn().');
  const popup = w.open(url ?? 'about:blank', `mcp-sign-in-${serverId}`, popupFeatures()) ?? null;
  try {
    // the authorization server's page gets no handle on ours; the answer comes back over
    // a BroadcastChannel, which needs none either
    if (popup) popup.opener = null;
  } catch {
    // cross-origin already: nothing to cut
  }
  return popup;
}

/** Close a popup that is still ours to close. */
export function closePopup(popup: Window | null): void {
  try {
    if (popup && !popup.closed) popup.close();
  } catch {
    // not ours to close any more
  }
}
