// The RFC 7523 JWT-bearer grant with an assertion the host supplies: enterprise-managed
// authorization (SEP-990: the user's identity assertion, exchanged at the enterprise identity
// provider for an ID-JAG, RFC 8693) and workload identity (SEP-1933: the host's JWT is the
// grant). The host registers a function (`hub.setIdentityAssertion`); its value and the ID-JAG
// live only for the one token request that needs them — never stored, never in an event, a log
// or an error (they are added to the redaction set at once).
import { requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { McpAuthError, redact } from '../errors.js';
import { endpointOf } from './fetch.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What the host's function is told when the hub needs an assertion. */
export interface IdentityAssertionRequest {
  readonly serverId: string;
  /** The MCP server's URL, as configured. */
  readonly serverUrl: string;
  /** `id-jag`: an identity assertion (the user's ID token) for the identity provider; `workload`: the JWT-bearer grant itself. */
  readonly flow: 'id-jag' | 'workload';
  /** The MCP server's authorization server (its issuer): a workload JWT's audience. */
  readonly issuer: string;
  /** The MCP server as a resource (RFC 9728 `resource`). */
  readonly resource: string;
  /** Scopes asked for, space-separated. */
  readonly scope?: string;
  /**
   * `id-jag`: the identity provider token endpoint the assertion will be posted to (always one
   * of the hub's `idpTokenEndpoints`; the function may still refuse it by throwing).
   */
  readonly idpTokenEndpoint?: string;
}

/** The host's source of identity assertions (a JWT string). */
export type IdentityAssertionSource = (request: IdentityAssertionRequest) => string | Promise<string>;

/** The host's sources by server id (`*`: every server without its own). */
export type IdentityAssertions = ReadonlyMap<string, IdentityAssertionSource>;

/** The host's sources, and where their identity assertions may go. */
export interface IdentityPolicy {
  readonly sources: IdentityAssertions;
  /** Whether the page allows identity assertions to be posted to this IdP token endpoint (`idpTokenEndpoints`). */
  idpAllowed(tokenEndpoint: string): boolean;
}

/** The identity provider token endpoint is not one the page allows: nothing is asked, nothing sent. */
export function idpNotAllowed(tokenEndpoint: string, name: string): McpAuthError {
  return new McpAuthError(
    'idp-not-allowed',
    `Server "${name}" names an identity provider token endpoint (${endpointOf(tokenEndpoint)}) the page does not allow: the user's identity assertion goes only to endpoints listed in the hub's idpTokenEndpoints option.`,
    { endpoint: endpointOf(tokenEndpoint) },
  );
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Ask the host for an assertion; anything but a compact JWT is `identity-assertion-failed`. */
export async function hostAssertion(
  sources: IdentityAssertions,
  request: IdentityAssertionRequest,
  name: string,
  remember: (value: string) => void,
  secrets: Iterable<string>,
): Promise<string> {
  const source = sources.get(request.serverId) ?? sources.get('*');
  if (!source)
    throw new McpAuthError(
      'identity-assertion-failed',
      `No identity assertion for server "${name}": the page must call hub.setIdentityAssertion() for it.`,
    );
  let value: unknown;
  try {
    value = await source(request);
  } catch (e) {
    const why = redact(e instanceof Error ? e.message : String(e), secrets).slice(0, 200);
    throw new McpAuthError(
      'identity-assertion-failed',
      `The page's identity assertion for server "${name}" failed: ${why}`,
    );
  }
  if (typeof value !== 'string' || !JWT.test(value))
    throw new McpAuthError(
      'identity-assertion-failed',
      `The page's identity assertion for server "${name}" is not a JWT (a compact JWS string).`,
    );
  remember(value);
  return value;
}

/**
 * RFC 8693 token exchange at the identity provider: the host's identity assertion for an ID-JAG
 * whose audience is the MCP authorization server and whose resource is the MCP server.
 */
export async function exchangeForIdJag(
  options: {
    tokenEndpoint: string;
    clientId: string;
    clientSecret?: string;
    idToken: string;
    audience: string;
    resource: string;
    scope?: string;
    fetchFn: typeof fetch;
  },
  remember: (value: string) => void,
  secrets: () => Iterable<string>,
): Promise<string> {
  try {
    const { jwtAuthGrant } = await requestJwtAuthorizationGrant({
      tokenEndpoint: options.tokenEndpoint,
      audience: options.audience,
      resource: options.resource,
      idToken: options.idToken,
      clientId: options.clientId,
      ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      fetchFn: options.fetchFn,
    });
    remember(jwtAuthGrant);
    return jwtAuthGrant;
  } catch (e) {
    // a network or CORS failure is explained by the caller from the fetch record
    if (e instanceof McpAuthError || e instanceof TypeError) throw e;
    const why = redact(e instanceof Error ? e.message : String(e), secrets()).slice(0, 300);
    throw new McpAuthError(
      'token-request-failed',
      `The identity provider's token endpoint (${endpointOf(options.tokenEndpoint)}) refused the token exchange for an ID-JAG: ${why}`,
      { endpoint: endpointOf(options.tokenEndpoint) },
    );
  }
}
