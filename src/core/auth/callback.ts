// The host's redirect page: hands the authorization server's answer (code, state, iss, or
// error) to the page that started the sign-in, over a BroadcastChannel of this origin. That
// works when the authorization server's Cross-Origin-Opener-Policy cut `window.opener`, and
// when the page that started the sign-in was reloaded meanwhile (its hub finds the sign-in in
// the vault). This module imports nothing of the hub: a redirect page stays tiny.

import { ANSWER_KEY, CALLBACK_CHANNEL, RETURN_KEY, type CallbackMessage } from './callback-keys.js';

export { ANSWER_KEY, CALLBACK_CHANNEL, RETURN_KEY, type CallbackMessage };

/** Options of `completeSignIn()`. */
export interface CompleteSignInOptions {
  /** The URL the authorization server redirected to. Default: this page's URL. */
  url?: string;
  /** How long to wait for the page that started the sign-in to take the answer. Default 5 s. */
  timeoutMs?: number;
  /** Close this window once the answer was taken (a popup). Default true. */
  close?: boolean;
}

/** What `completeSignIn()` did. */
export interface CompleteSignInResult {
  /**
   * `handed-over`: a page of this origin took the answer and finishes the sign-in;
   * `returning`: a full-page sign-in (the popup was blocked): on its way back to the page that
   * left, which finishes it;
   * `not-a-sign-in`: the URL carries no sign-in answer of mcp-elements (nothing was done);
   * `no-listener`: no page took it in time (the page that started it is gone).
   */
  readonly status: 'handed-over' | 'returning' | 'not-a-sign-in' | 'no-listener';
}

const STATE_PREFIX = 'mcpe.';

function sameOrigin(url: string): boolean {
  const here = (globalThis as { location?: Location }).location;
  try {
    return !!here && new URL(url).origin === here.origin && /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Call this on the redirect page (the `redirectUrl` given to the hub). It reads `code`,
 * `state`, `iss` or `error` from the URL, hands them to the page that started the sign-in,
 * removes them from the address bar, and closes the popup.
 */
export async function completeSignIn(options: CompleteSignInOptions = {}): Promise<CompleteSignInResult> {
  const here = (globalThis as { location?: Location }).location;
  const url = new URL(options.url ?? here?.href ?? 'about:blank');
  const p = url.searchParams;
  const state = p.get('state');
  if (!state || !state.startsWith(STATE_PREFIX) || (!p.has('code') && !p.has('error')))
    return { status: 'not-a-sign-in' };
  const message: CallbackMessage = {
    type: 'mcp-elements:sign-in-callback',
    state,
    ...(p.has('code') ? { code: p.get('code')! } : {}),
    ...(p.has('iss') ? { iss: p.get('iss')! } : {}),
    ...(p.has('error') ? { error: p.get('error')! } : {}),
  };
  // the code should not stay in the address bar or the history
  if (!options.url && typeof history !== 'undefined' && here) {
    const clean = new URL(here.href);
    for (const k of ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state'])
      clean.searchParams.delete(k);
    try {
      history.replaceState(history.state, '', clean.href);
    } catch {
      // a sandboxed page may not rewrite its URL
    }
  }
  // a full-page sign-in of this tab: keep the answer for the page it goes back to
  const session = (globalThis as { sessionStorage?: Storage }).sessionStorage;
  let back: { state?: unknown; returnTo?: unknown } | undefined;
  try {
    back = JSON.parse(session?.getItem(RETURN_KEY) ?? 'null') ?? undefined;
  } catch {
    back = undefined;
  }
  if (session && back?.state === state && typeof back.returnTo === 'string' && sameOrigin(back.returnTo)) {
    session.setItem(ANSWER_KEY, JSON.stringify(message));
    session.removeItem(RETURN_KEY);
    if (!options.url) here?.replace(back.returnTo);
    return { status: 'returning' };
  }
  if (typeof BroadcastChannel === 'undefined') return { status: 'no-listener' };
  const channel = new BroadcastChannel(CALLBACK_CHANNEL);
  const taken = await new Promise<boolean>((resolve) => {
    const timeout = setTimeout(() => finish(false), options.timeoutMs ?? 5000);
    // the page that started the sign-in may still be loading (a reload): say it again now and then
    const again = setInterval(() => channel.postMessage(message), 500);
    function finish(ok: boolean) {
      clearTimeout(timeout);
      clearInterval(again);
      resolve(ok);
    }
    channel.onmessage = (e: MessageEvent<CallbackMessage>) => {
      if (e.data?.type === 'mcp-elements:sign-in-ack' && e.data.state === state) finish(true);
    };
    channel.postMessage(message);
  });
  channel.close();
  if (!taken) return { status: 'no-listener' };
  if (options.close !== false && typeof window !== 'undefined') {
    try {
      window.close();
    } catch {
      // a window the script did not open may refuse to close
    }
  }
  return { status: 'handed-over' };
}
