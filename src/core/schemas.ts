import { z } from './zod-setup.js';
import { McpConfigError, type FieldIssue } from './errors.js';

/** Transports a server config may ask for. `auto` tries Streamable HTTP, then SSE, then plain JSON-RPC. */
export const TransportKindSchema = z.enum(['auto', 'streamable-http', 'sse', 'jsonrpc']);
export type TransportKind = z.infer<typeof TransportKindSchema>;

/** The revision that replaced the initialize handshake with server/discover. */
export const MODERN_REVISION = '2026-07-28';
/** Protocol revisions a server can be pinned to; `auto` negotiates the newest both sides speak. */
export const ProtocolRevisionSchema = z.enum([
  'auto',
  MODERN_REVISION,
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
]);
export type ProtocolRevision = z.infer<typeof ProtocolRevisionSchema>;

/** A reference to a secret held in the vault. Plain records store only these. */
export const SecretRefSchema = z.strictObject({ secretRef: z.string().check(z.regex(/^sec_[A-Za-z0-9-]+$/)) });
export type SecretRef = z.infer<typeof SecretRefSchema>;

/** What a caller may give for a secret: the clear value (stored encrypted) or an existing reference. */
// tokens and keys travel as header values (a line break there would fail every request, or
// smuggle a header where a client does not check): refused in every secret
const SecretInputSchema = z.union([
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(8192),
      z.regex(/^[^\r\n\0]*$/, 'must not contain line breaks'),
    ),
  SecretRefSchema,
]);

// C0 controls and DEL: the URL parser silently drops tab/CR/LF and percent-encodes the rest, so
// what would be stored is not what the user sees
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers the browser forbids or that the transport itself owns.
const RESERVED_HEADERS = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'origin',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
]);
const headerName = z.string().check(
  z.regex(HEADER_NAME, 'is not a valid HTTP header name'),
  z.refine(
    (n) => !RESERVED_HEADERS.has(n.toLowerCase()),
    'is set by the browser or the transport and cannot be overridden',
  ),
);
// Header values may not contain CR, LF or NUL.
const headerValue = z.string().check(z.regex(/^[^\r\n\0]*$/, 'must not contain line breaks'));

/** Whether a header of this name is treated as secret unless the caller says otherwise. */
export function looksSecret(name: string): boolean {
  return /authorization|token|secret|key|password|cookie|session/i.test(name);
}

export const AuthNoneSchema = z.strictObject({ type: z.literal('none') });
export const AuthBearerSchema = z.strictObject({ type: z.literal('bearer'), token: SecretInputSchema });
export const AuthApiKeySchema = z.strictObject({
  type: z.literal('api-key'),
  headerName: z._default(headerName, 'x-api-key'),
  key: SecretInputSchema,
});
export const AuthBasicSchema = z.strictObject({
  type: z.literal('basic'),
  username: z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(256),
      z.regex(/^[^:\r\n]*$/, 'must not contain ":" or line breaks'),
    ),
  password: SecretInputSchema,
});
// RFC 6749 §3.3 scope-token: printable ASCII except space, '"' and '\\'
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** OAuth scopes to ask for, each an RFC 6749 scope token. */
export const ScopesSchema = z
  .array(
    z
      .string()
      .check(
        z.maxLength(200),
        z.regex(SCOPE_TOKEN, 'is not a valid OAuth scope (printable ASCII, no spaces or quotes)'),
      ),
  )
  .check(z.maxLength(50));
const ClientIdSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'must not be empty'),
  z.maxLength(512),
  z.refine((v) => !CONTROL.test(v), 'must not contain control characters'),
);
/** A URL string checked by `problem` (urlProblem, clientMetadataUrlProblem). */
const checkedUrl = (problem: (v: string) => string | null) =>
  z.string().check(
    z.trim(),
    z.maxLength(2048),
    z.superRefine((v, ctx) => {
      const p = problem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    }),
  );
/**
 * OAuth 2.1 sign-in (authorization code with PKCE) in the user's browser. Nothing here is a
 * secret: tokens live in the vault, keyed by issuer, and never in the config.
 * - `clientId`: a client id registered with the server's authorization server beforehand;
 *   without one the hub uses `clientMetadataUrl` where the server supports Client ID Metadata
 *   Documents, else Dynamic Client Registration.
 * - `clientMetadataUrl`: the HTTPS URL where the host publishes its Client ID Metadata Document
 *   (overrides the hub's `clientMetadataUrl` option for this server).
 * - `scopes`: scopes to ask for besides those the server's challenge names.
 * - `clientSecret`: the secret of a pre-registered confidential client (`clientId`), for hosts
 *   that can keep one (Node, a backend); a page is refused it (servers/secrets.ts).
 */
const oauthFields = <S extends z.ZodMiniType>(secret: S) => ({
  type: z.literal('oauth'),
  clientId: z.optional(ClientIdSchema),
  clientSecret: z.optional(secret),
  clientMetadataUrl: z.optional(checkedUrl(clientMetadataUrlProblem)),
  scopes: z.optional(ScopesSchema),
});
function checkOAuthSecret(a: { clientId?: unknown; clientSecret?: unknown }, ctx: z.core.$RefinementCtx): void {
  if (a.clientSecret !== undefined && a.clientId === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['clientSecret'],
      message: 'needs clientId: the secret belongs to a client registered beforehand',
    });
}
export const AuthOAuthSchema = z.strictObject(oauthFields(SecretInputSchema)).check(z.superRefine(checkOAuthSecret));
const StoredAuthOAuthSchema = z.strictObject(oauthFields(SecretRefSchema)).check(z.superRefine(checkOAuthSecret));
/** OAuth sign-in settings as stored (a client secret only as a vault reference). */
export type AuthOAuth = z.infer<typeof StoredAuthOAuthSchema>;
/** How machine credentials authenticate the client at the token endpoint. */
export const ClientAuthMethodSchema = z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']);
/** A client key id of `hub.createClientKey()`. */
const KeyIdSchema = z
  .string()
  .check(z.maxLength(64), z.regex(/^[A-Za-z0-9_-]+$/, 'must be a key id from hub.createClientKey()'));
/** A secret method needs the secret; `private_key_jwt` needs the key and no secret. */
function checkClientAuth(
  a: { method?: string; clientSecret?: unknown; keyId?: unknown },
  ctx: z.core.$RefinementCtx,
): void {
  if ((a.method ?? 'client_secret_basic') === 'private_key_jwt') {
    if (a.keyId === undefined)
      ctx.addIssue({ code: 'custom', path: ['keyId'], message: 'is required for private_key_jwt' });
    if (a.clientSecret !== undefined)
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'is not used with private_key_jwt' });
  } else {
    if (a.clientSecret === undefined)
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: `is required for ${a.method}` });
    if (a.keyId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['keyId'], message: 'is used only with private_key_jwt' });
  }
}
/**
 * Machine credentials (OAuth `client_credentials`, no user): a client registered with the
 * server's authorization server, authenticated with its secret (kept in the vault) sent as HTTP
 * Basic (`client_secret_basic`, the default) or in the body (`client_secret_post`), or with a
 * JWT signed by a non-extractable key of `hub.createClientKey()` (`private_key_jwt`, `keyId`).
 */
export const AuthClientCredentialsSchema = z
  .strictObject({
    type: z.literal('client-credentials'),
    clientId: ClientIdSchema,
    clientSecret: z.optional(SecretInputSchema),
    keyId: z.optional(KeyIdSchema),
    method: z._default(ClientAuthMethodSchema, 'client_secret_basic'),
    scopes: z.optional(ScopesSchema),
  })
  .check(z.superRefine(checkClientAuth));
/** How a JWT-bearer client authenticates at the MCP authorization server (`none`: a public client). */
export const JwtBearerAuthMethodSchema = z.enum([
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
]);
/** `id-jag` needs the identity provider; `workload` sends the host's JWT itself and has none. */
function checkJwtBearer(
  a: { flow?: string; idp?: unknown; method?: string; clientSecret?: unknown; keyId?: unknown },
  ctx: z.core.$RefinementCtx,
): void {
  if (a.flow === 'id-jag' && a.idp === undefined)
    ctx.addIssue({ code: 'custom', path: ['idp'], message: 'is required for flow "id-jag" (the token exchange)' });
  if (a.flow === 'workload' && a.idp !== undefined)
    ctx.addIssue({ code: 'custom', path: ['idp'], message: 'is not used with flow "workload"' });
  if (a.method === 'none') {
    if (a.clientSecret !== undefined)
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'is not used with method "none"' });
    if (a.keyId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['keyId'], message: 'is used only with private_key_jwt' });
  } else checkClientAuth(a, ctx);
}
const jwtBearerFields = <S extends z.ZodMiniType>(secret: S) => ({
  type: z.literal('jwt-bearer'),
  flow: z.enum(['id-jag', 'workload']),
  clientId: ClientIdSchema,
  clientSecret: z.optional(secret),
  keyId: z.optional(KeyIdSchema),
  method: JwtBearerAuthMethodSchema,
  scopes: z.optional(ScopesSchema),
  idp: z.optional(
    z.strictObject({
      tokenEndpoint: checkedUrl(urlProblem),
      clientId: ClientIdSchema,
      clientSecret: z.optional(secret),
    }),
  ),
});
/**
 * The RFC 7523 JWT-bearer grant with an assertion the host supplies (`hub.setIdentityAssertion`),
 * never stored. `flow: 'id-jag'` (enterprise-managed authorization, SEP-990): the host's identity
 * assertion (the user's ID token) is exchanged at the identity provider's token endpoint
 * (`idp`, RFC 8693) for an ID-JAG, which is redeemed at the MCP server's authorization server.
 * `flow: 'workload'` (workload identity, SEP-1933): the host's JWT is the grant itself. The
 * client (`clientId`) authenticates at the MCP authorization server like machine credentials
 * (`method`, default `client_secret_basic`), or not at all (`none`).
 */
export const AuthJwtBearerSchema = z
  .strictObject({
    ...jwtBearerFields(SecretInputSchema),
    method: z._default(JwtBearerAuthMethodSchema, 'client_secret_basic'),
  })
  .check(z.superRefine(checkJwtBearer));
/** Authentication kinds. */
export const AuthSchema = z.discriminatedUnion('type', [
  AuthNoneSchema,
  AuthBearerSchema,
  AuthApiKeySchema,
  AuthBasicSchema,
  AuthOAuthSchema,
  AuthClientCredentialsSchema,
  AuthJwtBearerSchema,
]);
export type AuthInput = z.input<typeof AuthSchema>;

export const HeaderSchema = z.strictObject({
  name: headerName,
  value: z.union([headerValue, SecretRefSchema]),
  secret: z.optional(z.boolean()),
});

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

// Bidi embeddings/overrides (U+202A–202E) and isolates (U+2066–2069) make a name read differently
// from what it is ("abc\u202Eexe.moc" shows as "abccom.exe")
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * The URL policy: https anywhere, http only for localhost, 127.0.0.0/8 and [::1]; no user name
 * or password inside the URL; no control or bidi override characters. Returns a problem or null.
 */
export function urlProblem(value: string): string | null {
  if (CONTROL.test(value)) return 'must not contain control characters (line breaks, tabs, NUL)';
  if (BIDI_CONTROL.test(value)) return 'must not contain bidirectional override or isolate characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.username || url.password)
    return 'must not contain a user name or password; put credentials in the authentication settings';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname)
      ? null
      : `must use https: (plain http: is allowed only for localhost, 127.0.0.0/8 and [::1]; got host "${url.hostname}")`;
  }
  return `must use https: or http: (got "${url.protocol}")`;
}
/**
 * A Client ID Metadata Document URL must be https (loopback http too, for development) with a
 * path: the authorization server fetches it and the URL itself is the client id.
 */
export function clientMetadataUrlProblem(value: string): string | null {
  const p = urlProblem(value);
  if (p) return p;
  const url = new URL(value);
  if (url.pathname === '/' || url.pathname === '') return 'must have a path (the URL is the client id)';
  if (url.hash) return 'must not have a fragment';
  return null;
}
const UrlSchema = checkedUrl(urlProblem);

// the user's URL is used exactly as given (never rewrite its path): store the string itself
const timestamp = z.number().check(z.int(), z.nonnegative());

const ServerNameSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'must not be empty'),
  z.maxLength(100, 'must be at most 100 characters'),
  z.refine((v) => !CONTROL.test(v), 'must not contain control characters (line breaks, tabs, NUL)'),
  z.refine((v) => !BIDI_CONTROL.test(v), 'must not contain bidirectional override or isolate characters'),
);
const Description = z.string().check(z.maxLength(2000));
const Headers = z.array(HeaderSchema).check(z.maxLength(50));
const TimeoutSeconds = z.number().check(z.int('must be a whole number of seconds'), z.minimum(1), z.maximum(300));
const Retries = z.number().check(z.int(), z.minimum(0), z.maximum(5));

const sourceText = (max: number) =>
  z.string().check(
    z.minLength(1),
    z.maxLength(max),
    z.refine((v) => !CONTROL.test(v) && !BIDI_CONTROL.test(v), 'must not contain control characters'),
  );
/** Where a server was found (src/core/registry): the registry's base URL (or `curated`), the name and version there. */
export const ServerSourceSchema = z.strictObject({
  registry: sourceText(2048),
  name: sourceText(200),
  version: sourceText(255),
});
export type ServerSource = z.infer<typeof ServerSourceSchema>;

const serverFields = {
  name: ServerNameSchema,
  description: z._default(Description, ''),
  url: UrlSchema,
  transport: z._default(TransportKindSchema, 'auto'),
  /** Protocol revision: `auto` (negotiate) or one revision to insist on. */
  revision: z._default(ProtocolRevisionSchema, 'auto'),
  auth: z._default(AuthSchema, { type: 'none' }),
  headers: z._default(Headers, []),
  /** Per-request timeout in seconds (1–300). */
  timeout: z._default(TimeoutSeconds, 30),
  /** Connect attempts after the first (0–5). */
  retries: z._default(Retries, 3),
  enabled: z._default(z.boolean(), true),
  /** May this server ask the host's model for completions (each request still asks the user)? */
  allowSampling: z._default(z.boolean(), true),
  /** A relay (the package's relay entry) the page reaches the server through: the relay's URL. */
  relay: z.optional(UrlSchema),
  /** Where the server was found: the registry (its base URL, or `curated`), name and version. */
  source: z.optional(ServerSourceSchema),
};

/** What `hub.servers.add()` accepts. Secrets may be given in clear; they are moved to the vault. */
export const ServerConfigInputSchema = z.strictObject({
  id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
  ...serverFields,
});
export type ServerConfigInput = z.input<typeof ServerConfigInputSchema>;
/** What `hub.servers.update()` accepts: any subset of the fields. */
export const ServerConfigPatchSchema = z.strictObject({
  name: z.optional(serverFields.name),
  description: z.optional(Description),
  url: z.optional(UrlSchema),
  transport: z.optional(TransportKindSchema),
  revision: z.optional(ProtocolRevisionSchema),
  auth: z.optional(AuthSchema),
  headers: z.optional(Headers),
  timeout: z.optional(TimeoutSeconds),
  retries: z.optional(Retries),
  enabled: z.optional(z.boolean()),
  allowSampling: z.optional(z.boolean()),
  /** `null` removes the relay. */
  relay: z.optional(z.nullable(UrlSchema)),
  /** A newer registry version reviewed and saved (the manager's registry notice). */
  source: z.optional(ServerSourceSchema),
});
export type ServerConfigPatch = z.input<typeof ServerConfigPatchSchema>;

const StoredSecret = SecretRefSchema;
const StoredAuthSchema = z.discriminatedUnion('type', [
  AuthNoneSchema,
  z.strictObject({ type: z.literal('bearer'), token: StoredSecret }),
  z.strictObject({ type: z.literal('api-key'), headerName, key: StoredSecret }),
  z.strictObject({ type: z.literal('basic'), username: z.string(), password: StoredSecret }),
  StoredAuthOAuthSchema,
  z
    .strictObject({
      type: z.literal('client-credentials'),
      clientId: z.string(),
      clientSecret: z.optional(StoredSecret),
      keyId: z.optional(KeyIdSchema),
      method: ClientAuthMethodSchema,
      scopes: z.optional(ScopesSchema),
    })
    .check(z.superRefine(checkClientAuth)),
  z.strictObject(jwtBearerFields(StoredSecret)).check(z.superRefine(checkJwtBearer)),
]);
export type StoredAuth = z.infer<typeof StoredAuthSchema>;
const StoredHeaderSchema = z.strictObject({
  name: headerName,
  value: z.union([headerValue, StoredSecret]),
  secret: z.boolean(),
});
export type StoredHeader = z.infer<typeof StoredHeaderSchema>;

/** A stored server config. Secrets appear only as vault references. */
export const ServerConfigSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  ...serverFields,
  auth: StoredAuthSchema,
  headers: z.array(StoredHeaderSchema),
  createdAt: timestamp,
  updatedAt: timestamp,
  lastConnectedAt: z.optional(timestamp),
});
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** Catalogue of what a server offers, persisted so a reloaded page can show it before reconnecting. */
export const CatalogueSchema = z.object({
  serverId: z.string(),
  tools: z.array(z.looseObject({ name: z.string() })),
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string() })),
  resourceTemplates: z.array(z.looseObject({ uriTemplate: z.string(), name: z.string() })),
  prompts: z.array(z.looseObject({ name: z.string() })),
  serverInfo: z.optional(z.looseObject({ name: z.string(), version: z.string() })),
  protocolVersion: z.optional(z.string()),
  era: z.optional(z.enum(['modern', 'legacy', 'jsonrpc'])),
  sessionId: z.optional(z.string()),
  transport: z.optional(z.enum(['streamable-http', 'sse', 'jsonrpc'])),
  instructions: z.optional(z.string()),
  discoveredAt: timestamp,
  partial: z.optional(z.boolean()),
  listsFreshUntil: z.optional(timestamp),
  discover: z.optional(z.looseObject({})),
  discoverFreshUntil: z.optional(timestamp),
  /** The server answered its 2025 GET stream 405 (not asked again on the next connect). */
  streamDeclined: z.optional(z.boolean()),
  /** The connection settings transport/era were found with (connections/manager.ts `connectionKey`). */
  connectedWith: z.optional(z.string().check(z.maxLength(20_000))),
  /** Model-facing names given to the tools (assistants/given-names.ts), at most one per tool. */
  givenNames: z.optional(
    z.strictObject({
      serverName: z.string(),
      tools: z
        .record(z.string(), z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z][A-Za-z0-9_-]*$/)))
        .check(z.refine((r) => Object.keys(r).length <= 100_000, 'at most 100,000 names')),
    }),
  ),
});

/** Turn a zod error into field issues. */
export function toIssues(error: z.core.$ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
}

/** Parse with a schema or throw McpConfigError listing every bad field. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new McpConfigError(toIssues(r.error));
  return r.data;
}
