// The names the redirect page (auth/callback.ts, a page's) and the hub's sign-ins share: the
// channel, the sessionStorage keys and the message. Their own module so the sign-in code, which a
// backend loads for machine credentials, reaches none of the page's callback.

/** The BroadcastChannel the redirect page and the hubs of this origin talk on. */
export const CALLBACK_CHANNEL = 'mcp-elements:sign-in';
/**
 * sessionStorage keys of the full-page redirect (a blocked popup): where to go back to, written
 * by the page before it leaves; the answer, written by the redirect page for the page it returns
 * to. The code there is useless without the PKCE verifier sealed in the vault.
 */
export const RETURN_KEY = 'mcp-elements:sign-in-return';
export const ANSWER_KEY = 'mcp-elements:sign-in-answer';

/** What travels on the channel. The code is useless without the PKCE verifier in the vault. */
export type CallbackMessage =
  | {
      readonly type: 'mcp-elements:sign-in-callback';
      readonly state: string;
      readonly code?: string;
      readonly iss?: string;
      readonly error?: string;
    }
  | { readonly type: 'mcp-elements:sign-in-ack'; readonly state: string };
