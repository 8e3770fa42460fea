// The fetch every OAuth request goes through: the endpoint rules (https, or http on loopback)
// are checked before anything is sent; none of the MCP server's configured headers ride along
// (they are for the MCP server, not its authorization server); each request has a deadline; and
// what failed is recorded, so an error can name the endpoint and the CORS header it lacks.
// Also the check that an authorization server is one the hub may use (metadata, PKCE S256).
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
} from '@modelcontextprotocol/client';
import { McpAuthError, McpElementsError, redact } from '../errors.js';
import { urlProblem } from '../schemas.js';
import { readCapped } from '../read-capped.js';
import { crossOrigin, preflightHeaders } from '../session/cross-origin.js';

/** A request that never got an answer the page could read. */
export interface EndpointFailure {
  readonly url: string;
  readonly method: string;
  /** Request headers a CORS preflight had to allow. */
  readonly headers: readonly string[];
  readonly crossOrigin: boolean;
}

/** The URL without query and fragment (a code or state never appears in a message). */
export function endpointOf(url: string | URL): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

/** What an OAuth URL is, for a person: "the token endpoint http://…/token". */
export function describeEndpoint(url: string, metadata?: Readonly<Record<string, unknown>>): string {
  const at = endpointOf(url);
  const named: [string, string][] = [
    ['token_endpoint', 'token endpoint'],
    ['registration_endpoint', 'registration endpoint'],
    ['revocation_endpoint', 'revocation endpoint'],
    ['authorization_endpoint', 'authorization endpoint'],
  ];
  for (const [field, label] of named)
    if (typeof metadata?.[field] === 'string' && endpointOf(metadata[field]) === at) return `the ${label} ${at}`;
  const path = (() => {
    try {
      return new URL(url).pathname;
    } catch {
      return '';
    }
  })();
  if (path.includes('/.well-known/oauth-protected-resource')) return `the protected resource metadata ${at}`;
  if (path.includes('/.well-known/oauth-authorization-server') || path.includes('/.well-known/openid-configuration'))
    return `the authorization server metadata ${at}`;
  if (/\/token$/.test(path)) return `the token endpoint ${at}`;
  if (/\/(register|reg)$/.test(path)) return `the registration endpoint ${at}`;
  return at;
}

/** The largest OAuth response read (metadata, registration, token): 1 MB; a larger one fails the request. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/** `response` with its body read, at most `max` bytes (McpAuthError beyond, naming the endpoint). */
async function capped(response: Response, url: string, max: number): Promise<Response> {
  const tooLarge = () =>
    new McpAuthError(
      'sign-in-failed',
      `${describeEndpoint(url)} answered more than ${max / (1024 * 1024)} MB; an OAuth response is never that large, so it was not read.`,
      { endpoint: endpointOf(url) },
    );
  // an opaque redirect (status 0) has nothing to read, and no Response can be made with its
  // status; WebKit gives it an empty body where Chromium gives none (a relayed sign-in's 307)
  if (!response.body || response.type === 'opaqueredirect' || response.status === 0) return response;
  const body = await readCapped(response, max);
  if (!body) throw tooLarge();
  const copy = new Response([204, 205, 304].includes(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}

/**
 * Our relay (src/relay) marks the answers it makes itself, when it will not forward or could not
 * reach the target, with this header (relay/headers.ts: an upstream's header of that name never
 * crosses), and says why in a JSON `{ error }`. Only the kind is read from that text: the message
 * is built from the URL this page asked for, never from words a server could have chosen.
 */
const RELAY_REFUSAL_HEADER = 'mcp-relay-refusal';

/** A request the relay did not forward (`refused`) or could not get answered (`unreached`). */
interface RelayRefused {
  readonly url: string;
  readonly kind: 'not-allowed' | 'refused' | 'unreached';
}

/** One OAuth exchange's fetch and what failed in it. */
export class OAuthFetch {
  readonly failures: EndpointFailure[] = [];
  readonly #relayRefused: RelayRefused[] = [];
  constructor(
    private readonly base: typeof fetch | undefined,
    private readonly timeoutMs: number,
    /** The relay every request goes through (a relayed server's sign-in), so its refusals can be named. */
    private readonly relay?: string,
  ) {}

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const problem = urlProblem(url);
    if (problem)
      throw new McpAuthError(
        'insecure-endpoint',
        `Refused to contact ${describeEndpoint(url)}: an OAuth endpoint ${problem}.`,
        { endpoint: endpointOf(url) },
      );
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const f = this.base ?? globalThis.fetch;
    let response: Response;
    try {
      response = await f(input, { ...init, signal });
    } catch (e) {
      if (deadline.aborted)
        throw new McpAuthError('endpoint-unreachable', `${describeEndpoint(url)} did not answer in time.`, {
          endpoint: endpointOf(url),
          cause: e,
        });
      if ((e as Error)?.name === 'AbortError') throw e;
      this.failures.push({
        url,
        method: (init?.method ?? 'GET').toUpperCase(),
        headers: preflightHeaders(init),
        crossOrigin: crossOrigin(url),
      });
      // still a TypeError, as fetch's own: the SDK's discovery reads one as "try the next
      // well-known URL"; the explanation travels as its cause
      throw new TypeError(`Could not reach ${endpointOf(url)}.`, { cause: e });
    }
    // a hostile server must not make the page read (and parse) without end
    const read = await capped(response, url, MAX_OAUTH_RESPONSE_BYTES);
    if (this.relay && read.headers.get(RELAY_REFUSAL_HEADER)) await this.#noteRelayRefusal(read, url);
    return read;
  };

  /** The SDK reads a 403 at a well-known URL as "no metadata here": keep what the relay said. */
  async #noteRelayRefusal(response: Response, url: string): Promise<void> {
    let error: unknown;
    try {
      ({ error } = (await response.clone().json()) as { error?: unknown });
    } catch {
      // a body that is not the relay's JSON: still the relay's answer (the header says so)
    }
    const text = typeof error === 'string' ? error : '';
    const kind = response.status >= 500 ? 'unreached' : /allowlist/.test(text) ? 'not-allowed' : 'refused';
    this.#relayRefused.push({ url, kind });
  }

  /** An error naming the endpoint(s) the browser could not read, or undefined when none failed. */
  unreachable(
    metadata?: Readonly<Record<string, unknown>>,
    only?: (f: EndpointFailure) => boolean,
  ): McpAuthError | undefined {
    const refused = this.#relayRefused[this.#relayRefused.length - 1];
    if (refused && !only) {
      const relay = new URL(this.relay!).origin;
      const upstream = new URL(refused.url).origin;
      const why =
        refused.kind === 'unreached'
          ? `The relay ${relay} could not get an answer from ${upstream}, which this server's sign-in needs: is it up?`
          : `The relay ${relay} does not forward to ${upstream}, which this server's sign-in needs: ` +
            (refused.kind === 'not-allowed'
              ? `add ${upstream} to the relay's allow list.`
              : `it refuses that address; ask whoever runs the relay.`);
      return new McpAuthError('endpoint-unreachable', why, { endpoint: endpointOf(refused.url) });
    }
    const failed = this.failures.filter(only ?? (() => true));
    if (!failed.length) return undefined;
    const last = failed[failed.length - 1];
    const where = [...new Set(failed.map((f) => describeEndpoint(f.url, metadata)))];
    const cors = failed.some((f) => f.crossOrigin);
    const headers = [...new Set(failed.flatMap((f) => f.headers))].filter((h) => h !== 'mcp-protocol-version');
    const hint = cors
      ? ` The server is down, or its responses lack CORS headers for this page: it must send ` +
        `Access-Control-Allow-Origin (this page's origin, or *)` +
        (headers.length
          ? ` and allow the request header${headers.length > 1 ? 's' : ''} ${headers.join(', ')} in Access-Control-Allow-Headers`
          : '') +
        '.'
      : ' Is the server running, and is the URL right?';
    return new McpAuthError('endpoint-unreachable', `The browser could not read ${where.join(', then ')}.${hint}`, {
      endpoint: endpointOf(last.url),
    });
  }
}

/** The first McpAuthError in an error's cause chain. */
export function authErrorIn(e: unknown): McpAuthError | undefined {
  for (let c = e, depth = 0; c instanceof Error && depth < 6; c = c.cause, depth++)
    if (c instanceof McpAuthError) return c;
  return undefined;
}

/**
 * Anything the SDK's OAuth functions throw, as an McpAuthError. Values an attacker controls in
 * a mix-up (the callback's `iss`, `error_description`) are never repeated.
 */
export function toAuthError(
  e: unknown,
  log: OAuthFetch,
  metadata: Readonly<Record<string, unknown>> | undefined,
  secrets: Iterable<string>,
): McpAuthError {
  const own = authErrorIn(e);
  if (own) return own;
  if (e instanceof McpElementsError) return new McpAuthError('sign-in-failed', e.message, { cause: e });
  const clean = (m: string) => redact(m, secrets).slice(0, 300);
  if (e instanceof IssuerMismatchError)
    return new McpAuthError(
      'issuer-mismatch',
      e.kind === 'metadata'
        ? `The authorization server metadata names another issuer than the one it was fetched for (RFC 8414); sign-in refused.`
        : `The authorization response did not come from the authorization server sign-in started with (RFC 9207 iss check); it was refused.`,
      { cause: e },
    );
  if (e instanceof AuthorizationServerMismatchError)
    return new McpAuthError(
      'issuer-mismatch',
      `The server now names another authorization server than the one this sign-in started with; sign in again.`,
      { cause: e },
    );
  if (e instanceof InsecureTokenEndpointError)
    return new McpAuthError(
      'insecure-endpoint',
      `Refused to send credentials to ${describeEndpoint(e.tokenEndpoint, metadata)}: OAuth endpoints must use https: (plain http: only on loopback).`,
      { endpoint: endpointOf(e.tokenEndpoint), cause: e },
    );
  if (e instanceof InsufficientScopeError)
    return new McpAuthError(
      'insufficient-scope',
      `The server needs more permissions${e.requiredScope ? ` (${clean(e.requiredScope)})` : ''}: sign in again to grant them.`,
      { cause: e, ...(e.requiredScope ? { scope: e.requiredScope } : {}) },
    );
  if (e instanceof RegistrationRejectedError) {
    let code = '';
    try {
      code = String((JSON.parse(e.body) as { error?: unknown }).error ?? '');
    } catch {
      // not JSON
    }
    const at = typeof metadata?.registration_endpoint === 'string' ? metadata.registration_endpoint : undefined;
    return new McpAuthError(
      'registration-failed',
      `${at ? describeEndpoint(at, metadata) : 'The registration endpoint'} refused to register this page as a client (HTTP ${e.status}${/^[a-z_]{1,64}$/.test(code) ? `, ${code}` : ''}). Set a client id in the server's sign-in settings.`,
      { cause: e, ...(at ? { endpoint: endpointOf(at) } : {}) },
    );
  }
  if (e instanceof OAuthError) {
    const code = /^[a-z_]{1,64}$/.test(e.code) ? e.code : 'error';
    const at = typeof metadata?.token_endpoint === 'string' ? metadata.token_endpoint : undefined;
    return new McpAuthError(
      'token-request-failed',
      `${at ? describeEndpoint(at, metadata) : 'The token endpoint'} refused the request (${code}${e.message ? `: ${clean(e.message)}` : ''}).`,
      { cause: e, ...(at ? { endpoint: endpointOf(at) } : {}) },
    );
  }
  if (e instanceof TypeError) {
    const named = log.unreachable(metadata);
    if (named) return named;
  }
  const message = e instanceof Error ? e.message : String(e);
  if (/does not support dynamic client registration/.test(message))
    return new McpAuthError(
      'registration-failed',
      `The authorization server does not support Dynamic Client Registration and no client id is configured: set one in the server's sign-in settings.`,
      { cause: e },
    );
  if (/code challenge method/.test(message))
    return new McpAuthError('pkce-unsupported', `The authorization server does not support PKCE S256.`, { cause: e });
  if ((e as Error)?.name === 'ZodError' || (e as Error)?.name === '$ZodError' || e instanceof SyntaxError)
    return new McpAuthError('metadata', `An OAuth endpoint answered with a malformed document: ${clean(message)}`, {
      cause: e,
    });
  return new McpAuthError('sign-in-failed', `Sign-in failed: ${clean(message)}`, { cause: e });
}

/**
 * The hub can use this authorization server: it has metadata (else what could not be read, or
 * `metadata`) and advertises PKCE S256 (else `pkce-unsupported`). MCP asks clients to refuse one
 * that lists no methods; the SDK refuses only one that lists others.
 */
export function checkAuthorizationServer(
  discovery:
    | {
        authorizationServerUrl?: string;
        authorizationServerMetadata?: { issuer: string; code_challenge_methods_supported?: string[] };
      }
    | undefined,
  log: OAuthFetch | undefined,
  /** A 2025-03-26 server: without metadata, that revision's default endpoints are used (PKCE S256 always). */
  defaultEndpoints = false,
): void {
  const metadata = discovery?.authorizationServerMetadata;
  if (!metadata) {
    const unread = log?.unreachable(undefined);
    if (unread) throw unread;
    if (defaultEndpoints) return;
    const as = discovery?.authorizationServerUrl;
    throw new McpAuthError(
      'metadata',
      `${as ? `The authorization server ${endpointOf(as)}` : 'The authorization server'} publishes no metadata ` +
        `(RFC 8414 or OpenID Connect discovery), so PKCE support cannot be checked; sign-in refused ` +
        `(only a 2025-03-26 server without Protected Resource Metadata gets that revision's default endpoints).`,
      ...(as ? [{ endpoint: endpointOf(as) }] : []),
    );
  }
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    throw new McpAuthError(
      'pkce-unsupported',
      `The authorization server ${metadata.issuer} does not advertise PKCE with S256 ` +
        `(code_challenge_methods_supported), which OAuth 2.1 and MCP require; sign-in refused.`,
      { endpoint: endpointOf(metadata.issuer) },
    );
}
