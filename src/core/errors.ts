/**
 * Base class of every error mcp-elements throws. `code` is stable and machine-readable.
 * Each class sets `name` as a string literal: the minified CDN build renames classes, so
 * `new.target.name` would give hosts "Uc" instead of "McpConfigError".
 */
export class McpElementsError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpElementsError';
    this.code = code;
  }
}

/** One field that failed validation: a dotted path and a sentence a person can act on. */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/** A server config (or other input) was invalid. Nothing was stored. */
export class McpConfigError extends McpElementsError {
  readonly issues: readonly FieldIssue[];
  constructor(issues: readonly FieldIssue[], message?: string) {
    super(
      'invalid-config',
      message ??
        `Invalid configuration: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    this.name = 'McpConfigError';
    this.issues = issues;
  }
}

/** No record with that id exists. */
export class McpNotFoundError extends McpElementsError {
  constructor(what: string, id: string) {
    super('not-found', `No ${what} with id "${id}".`);
    this.name = 'McpNotFoundError';
  }
}

export type ConnectionErrorCode =
  | 'network' // fetch failed: server down or (cross-origin) no CORS headers
  | 'http' // the server answered with an HTTP error status
  | 'unauthorized' // 401 / 403
  | 'timeout'
  | 'aborted'
  | 'protocol' // malformed or unexpected response
  | 'server' // JSON-RPC error returned by the server
  | 'session-expired'
  | 'not-connected'
  | 'insecure-url'
  | 'too-large' // the response exceeded the hub's size cap
  | 'dropped' // the response stream ended before the answer (the request may have run)
  | 'revision' // the server does not speak the protocol revision pinned in its config
  | 'input-required' // the server asked the client for input the hub cannot answer yet
  | 'unsupported' // the server does not offer what was asked (e.g. resource subscriptions)
  | 'no-stream' // the origin has no long-lived stream to spare for the server's notifications
  | 'task-cancelled' // the server ended the call's task as cancelled
  | 'redirect'; // the server redirected to another origin (or where the browser hides): not followed

/** Reaching or talking to an MCP server failed. */
export class McpConnectionError extends McpElementsError {
  declare readonly code: ConnectionErrorCode;
  /** HTTP status, when the server answered with one. */
  readonly status?: number;
  /** JSON-RPC error code, when the server returned one. */
  readonly rpcCode?: number;
  constructor(
    code: ConnectionErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number; rpcCode?: number },
  ) {
    super(code, message, options);
    this.name = 'McpConnectionError';
    if (options?.status !== undefined) this.status = options.status;
    if (options?.rpcCode !== undefined) this.rpcCode = options.rpcCode;
  }
}

export type AuthErrorCode =
  | 'sign-in-required' // the server wants a signed-in user: call hub.signIn(id) in a click
  | 'insufficient-scope' // the token lacks a scope the server asked for: sign in again (step-up)
  | 'popup-blocked' // the browser refused to open the sign-in window
  | 'cancelled' // another sign-in replaced this one, or the hub was disposed
  | 'expired' // the sign-in was not finished in time
  | 'access-denied' // the authorization server answered with an error (the user declined…)
  | 'issuer-mismatch' // RFC 9207 / RFC 8414 issuer check failed (possible mix-up attack)
  | 'issuer-missing' // an answer without iss while several authorization servers are in play (mix-up defence)
  | 'pkce-unsupported' // the authorization server does not advertise PKCE S256
  | 'insecure-endpoint' // an OAuth endpoint is not https (nor loopback)
  | 'endpoint-unreachable' // network or CORS failure on a metadata, registration or token endpoint
  | 'metadata' // no usable authorization server metadata
  | 'registration-failed' // no client id could be obtained (registration refused or unsupported)
  | 'token-request-failed' // the token endpoint refused the code or the refresh token
  | 'identity-assertion-failed' // the page gave no identity assertion (hub.setIdentityAssertion) or its function failed
  | 'idp-not-allowed' // a server's identity provider token endpoint is not in the hub's idpTokenEndpoints
  | 'sign-in-failed'; // anything else

/**
 * Signing in to a server failed or is needed. `endpoint` names the OAuth endpoint at fault
 * (without its query), when one is. Messages never carry a token, code or verifier.
 */
export class McpAuthError extends McpElementsError {
  declare readonly code: AuthErrorCode;
  /** The endpoint at fault (metadata, registration, token, authorization…), when there is one. */
  readonly endpoint?: string;
  /** Scopes the server asked for (insufficient-scope, sign-in-required), space-separated. */
  readonly scope?: string;
  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown; endpoint?: string; scope?: string }) {
    super(code, message, options);
    this.name = 'McpAuthError';
    if (options?.endpoint !== undefined) this.endpoint = options.endpoint;
    if (options?.scope !== undefined) this.scope = options.scope;
  }
}

/** Persistent storage failed; the hub keeps running in memory. */
export class McpStorageError extends McpElementsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('storage', message, options);
    this.name = 'McpStorageError';
  }
}

/** The secret vault could not encrypt or decrypt. */
export class McpVaultError extends McpElementsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('vault', message, options);
    this.name = 'McpVaultError';
  }
}

/**
 * A skill's file (SEP-2640) failed verification against the server's own entry for it: not
 * listed (`unlisted`), wrong byte length (`size`), wrong SHA-256 (`digest`), or a `SKILL.md`
 * whose frontmatter differs from the entry's (`frontmatter`); or the entry itself is malformed
 * (`invalid`). The content is not used: a skill that fails is not loaded.
 */
export class McpSkillError extends McpElementsError {
  declare readonly code: 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'invalid';
  /** The file (or skill) at fault. */
  readonly uri: string;
  constructor(code: McpSkillError['code'], uri: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'McpSkillError';
    this.uri = uri;
  }
}

/** Replace every occurrence of each secret in `text` with a placeholder. */
/**
 * A copy of `value` with every secret in its strings redacted (deep). `data` and `blob` fields
 * (base64 media) are left alone: a secret in them is not readable text.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value;
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key === 'data' || key === 'blob' ? v : redact(v, secrets);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k, secrets), walk(x, k)]));
    return v;
  };
  return walk(value) as T;
}

export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 3) out = out.split(s).join('[redacted]');
  }
  return out;
}
