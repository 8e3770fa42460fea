// The options of sign-in: those of the hub (`redirectUrl`, `clientMetadataUrl`, checked when
// given) and those of one `hub.signIn()` call.
import { McpConfigError } from '../errors.js';
import { clientMetadataUrlProblem, urlProblem } from '../schemas.js';

/** The hub's sign-in options (`new McpHub({ redirectUrl, clientMetadataUrl })`, `hub.setSignInOptions()`). */
export interface HubSignInOptions {
  redirectUrl?: string;
  clientMetadataUrl?: string;
  dpop?: 'auto' | 'prefer' | 'off';
  /** The IdP token endpoints the page's identity assertions may go to (normalized URLs). */
  idpTokenEndpoints?: readonly string[];
}

/** Options of `hub.signIn()`. */
export interface SignInOptions {
  /**
   * Open the authorization URL yourself instead of a popup (Node, tests, a host's own window).
   * Resolve with the URL the authorization server redirected to (with `code` and `state`) to
   * finish here; resolve with nothing when the host's redirect page calls `completeSignIn()`.
   */
  open?: (authorizationUrl: string) => void | string | Promise<void | string>;
  /**
   * When the browser blocks the popup: `redirect` (default) takes this page to the
   * authorization server and back (the redirect page returns here, and the hub finishes the
   * sign-in on load; the promise never settles: the page goes away); `none` rejects with
   * `popup-blocked`.
   */
  fallback?: 'redirect' | 'none';
}

/** An endpoint URL as compared with the allow-list (parsed and serialized: case, default port, `/`). */
export const normalizeEndpoint = (url: string): string => new URL(url).href;

/** Whether `url` is on an allow-list of `normalizeEndpoint`ed URLs. */
export function endpointAllowed(list: readonly string[] | undefined, url: string): boolean {
  try {
    return !!list?.includes(normalizeEndpoint(url));
  } catch {
    return false;
  }
}

/** The issues of an allow-list option (an array of URLs, each by the URL rules): path `<path>.<i>`. */
export function urlListIssues(list: unknown, path: string, what: string): { path: string; message: string }[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [{ path, message: `must be an array of ${what}` }];
  return list.flatMap((u: unknown, i) => {
    const problem = typeof u === 'string' ? urlProblem(u) : 'must be a URL string';
    return problem ? [{ path: `${path}.${i}`, message: problem }] : [];
  });
}

/**
 * Validate the sign-in options: a redirect URL of this origin, a usable metadata document URL
 * (McpConfigError). Returns those that were given.
 */
export function checkSignInOptions(options: HubSignInOptions): HubSignInOptions {
  const issues: { path: string; message: string }[] = [];
  const value = options.redirectUrl;
  if (value !== undefined) {
    const problem = urlProblem(value);
    const here = (globalThis as { location?: Location }).location;
    if (problem) issues.push({ path: 'redirectUrl', message: problem });
    else if (here?.origin && here.origin !== 'null' && new URL(value).origin !== here.origin)
      issues.push({
        path: 'redirectUrl',
        message: `must be a page of this origin (${here.origin}): it hands the code back here`,
      });
  }
  if (options.clientMetadataUrl !== undefined) {
    const problem = clientMetadataUrlProblem(options.clientMetadataUrl);
    if (problem) issues.push({ path: 'clientMetadataUrl', message: problem });
  }
  if (options.dpop !== undefined && !['auto', 'prefer', 'off'].includes(options.dpop))
    issues.push({ path: 'dpop', message: "must be 'auto', 'prefer' or 'off'" });
  const idp = options.idpTokenEndpoints;
  issues.push(...urlListIssues(idp, 'idpTokenEndpoints', 'token endpoint URLs'));
  if (issues.length) throw new McpConfigError(issues);
  return {
    ...(idp !== undefined ? { idpTokenEndpoints: Object.freeze(idp.map(normalizeEndpoint)) } : {}),
    ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
    ...(options.redirectUrl !== undefined ? { redirectUrl: options.redirectUrl } : {}),
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
  };
}

/** What only a page has for sign-in (the page shell's: core/shell/page-shell.ts). */
export interface SignInPage {
  /** Open the sign-in popup (on `url`, else blank) in the caller's task; null when the browser blocked it. */
  openPopup(serverId: string, url?: string): Window | null;
  /** Close a popup that is still ours to close. */
  closePopup(popup: Window): void;
  /** A full-page sign-in left its answer for this page (sessionStorage). */
  answerWaiting(): boolean;
}
