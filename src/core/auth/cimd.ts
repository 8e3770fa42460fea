// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): the host
// publishes one JSON document at an HTTPS URL, and that URL is its OAuth client id at every
// authorization server that supports them — no registration request, nothing stored per server.
import { McpConfigError } from '../errors.js';
import { clientMetadataUrlProblem, urlProblem } from '../schemas.js';

/** Options of `clientMetadataDocument()`. */
export interface ClientMetadataDocumentOptions {
  /** The HTTPS URL the document will be served at; it is the client id. */
  clientId: string;
  /** The page(s) that call `completeSignIn()` (the hub's `redirectUrl`). */
  redirectUris: readonly string[];
  /** What the authorization server shows the user ("Sign in to … with <clientName>"). */
  clientName: string;
  /** The host's home page. */
  clientUri?: string;
  /** A logo the authorization server may show. */
  logoUri?: string;
}

/**
 * The JSON a host publishes at `clientId` (serve it as `application/json`) so that servers
 * supporting Client ID Metadata Documents accept this page as an OAuth client: a public client
 * (no secret, PKCE) using the authorization-code and refresh-token grants.
 */
export function clientMetadataDocument(options: ClientMetadataDocumentOptions): Record<string, unknown> {
  const issues: { path: string; message: string }[] = [];
  const idProblem = clientMetadataUrlProblem(options.clientId);
  if (idProblem) issues.push({ path: 'clientId', message: idProblem });
  if (!options.redirectUris.length) issues.push({ path: 'redirectUris', message: 'must name at least one page' });
  options.redirectUris.forEach((u, i) => {
    const p = urlProblem(u);
    if (p) issues.push({ path: `redirectUris.${i}`, message: p });
  });
  for (const k of ['clientUri', 'logoUri'] as const) {
    const v = options[k];
    const p = v === undefined ? null : urlProblem(v);
    if (p) issues.push({ path: k, message: p });
  }
  if (!options.clientName.trim()) issues.push({ path: 'clientName', message: 'must not be empty' });
  if (issues.length) throw new McpConfigError(issues);
  return {
    client_id: options.clientId,
    client_name: options.clientName,
    redirect_uris: [...options.redirectUris],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'web',
    ...(options.clientUri ? { client_uri: options.clientUri } : {}),
    ...(options.logoUri ? { logo_uri: options.logoUri } : {}),
  };
}
