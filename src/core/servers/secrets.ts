// Secrets of server configs: sealing clear values into the vault, checking borrowed refs, and
// opening them again as request headers.
import { McpConfigError } from '../errors.js';
import {
  looksSecret,
  type SecretRef,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigInputSchema,
  type StoredAuth,
  type StoredHeader,
} from '../schemas.js';
import type { Vault } from '../persistence/vault.js';

/** What opening a session needs: a stored config, or a form's parsed input. */
export type ConnectTarget = Pick<ServerConfig, 'url' | 'transport' | 'timeout'> & {
  relay?: string;
  revision?: ServerConfig['revision'];
  auth: StoredAuth | NonNullable<ReturnType<typeof ServerConfigInputSchema.parse>['auth']>;
  headers: readonly { name: string; value: string | SecretRef; secret?: boolean }[];
};

/** Whether the hub runs in a web page (or a worker of one): there, every user can read what it holds. */
function inPage(): boolean {
  const protocol = (globalThis as { location?: { protocol?: unknown } }).location?.protocol;
  return typeof protocol === 'string' && protocol !== 'file:';
}

/** A page given an OAuth client secret: refused, with why. */
function pageCannotKeepSecret(): McpConfigError {
  return new McpConfigError([
    {
      path: 'auth.clientSecret',
      message:
        'cannot be kept in a web page: whatever a page holds, its users (and any script on the page) can read, so a browser-based app is a public client (OAuth 2.1, browser-based apps). Sign in without a secret (PKCE), or run the hub where the secret stays private (Node, a backend)',
    },
  ]);
}

/** Every vault reference a stored config holds. */
export function collectRefs(config: Pick<ServerConfig, 'auth' | 'headers'>): SecretRef[] {
  const refs: SecretRef[] = [];
  const a = config.auth;
  if (a.type === 'bearer') refs.push(a.token);
  if (a.type === 'api-key') refs.push(a.key);
  if (a.type === 'basic') refs.push(a.password);
  if ((a.type === 'client-credentials' || a.type === 'jwt-bearer' || a.type === 'oauth') && a.clientSecret)
    refs.push(a.clientSecret);
  if (a.type === 'jwt-bearer' && a.idp?.clientSecret) refs.push(a.idp.clientSecret);
  for (const h of config.headers) if (typeof h.value !== 'string') refs.push(h.value);
  return refs;
}

/** Delete secrets, ignoring ones already gone. */
export async function dropSecrets(vault: Vault, refs: readonly SecretRef[]): Promise<void> {
  await Promise.all(refs.map((r) => vault.delete(r).catch(() => {})));
}

/** Move clear secrets into the vault; returns the stored forms and the refs created. */
export async function sealSecrets(
  vault: Vault,
  auth: ServerConfigInput['auth'] | undefined,
  headers: ServerConfigInput['headers'] | undefined,
): Promise<{ auth?: StoredAuth; headers?: StoredHeader[]; created: SecretRef[] }> {
  const created: SecretRef[] = [];
  const put = async (v: string | SecretRef) => {
    if (typeof v !== 'string') return v;
    const ref = await vault.put(v);
    created.push(ref);
    return ref;
  };
  try {
    let sealedAuth: StoredAuth | undefined;
    if (auth) {
      const a = auth;
      if (a.type === 'bearer') sealedAuth = { type: 'bearer', token: await put(a.token) };
      else if (a.type === 'api-key')
        sealedAuth = { type: 'api-key', headerName: a.headerName ?? 'x-api-key', key: await put(a.key) };
      else if (a.type === 'basic')
        sealedAuth = { type: 'basic', username: a.username, password: await put(a.password) };
      // OAuth settings hold no secret but a pre-registered confidential client's (tokens are
      // sealed per server when the user signs in)
      else if (a.type === 'oauth') {
        if (a.clientSecret !== undefined && inPage()) throw pageCannotKeepSecret();
        const { clientSecret, ...rest } = a;
        sealedAuth = { ...rest, ...(clientSecret !== undefined ? { clientSecret: await put(clientSecret) } : {}) };
      } else if (a.type === 'client-credentials')
        sealedAuth = {
          type: 'client-credentials',
          clientId: a.clientId,
          ...(a.clientSecret !== undefined ? { clientSecret: await put(a.clientSecret) } : {}),
          ...(a.keyId !== undefined ? { keyId: a.keyId } : {}),
          method: a.method ?? 'client_secret_basic',
          ...(a.scopes ? { scopes: a.scopes } : {}),
        };
      else if (a.type === 'jwt-bearer') {
        // the host's assertion is never part of the config: only the clients' own secrets are sealed
        const { clientSecret, idp, ...rest } = a;
        sealedAuth = {
          ...rest,
          method: a.method ?? 'client_secret_basic',
          ...(clientSecret !== undefined ? { clientSecret: await put(clientSecret) } : {}),
          ...(idp
            ? {
                idp: {
                  tokenEndpoint: idp.tokenEndpoint,
                  clientId: idp.clientId,
                  ...(idp.clientSecret !== undefined ? { clientSecret: await put(idp.clientSecret) } : {}),
                },
              }
            : {}),
        };
      } else sealedAuth = { type: 'none' };
    }
    let sealedHeaders: StoredHeader[] | undefined;
    if (headers) {
      sealedHeaders = [];
      for (const h of headers) {
        const secret = h.secret ?? (typeof h.value !== 'string' || looksSecret(h.name));
        sealedHeaders.push({ name: h.name, value: secret ? await put(h.value) : h.value, secret });
      }
    }
    return { auth: sealedAuth, headers: sealedHeaders, created };
  } catch (e) {
    await dropSecrets(vault, created);
    throw e;
  }
}

/** The stored secrets of a config, each with its field path (as McpConfigError issues name fields). */
function secretPaths(config: { auth?: unknown; headers?: unknown }): { path: string; ref: string }[] {
  const out: { path: string; ref: string }[] = [];
  const walk = (v: unknown, path: string) => {
    if (!v || typeof v !== 'object') return;
    if ('secretRef' in v) out.push({ path, ref: String((v as SecretRef).secretRef) });
    else for (const [k, c] of Object.entries(v)) walk(c, path ? `${path}.${k}` : k);
  };
  walk({ auth: config.auth, headers: config.headers }, '');
  return out;
}

/**
 * A URL edit to another origin: refuse it (McpConfigError, one issue per secret) while the
 * edited record would still hold a secret stored for the old origin — one the patch does not
 * replace, or passes back by reference. Secrets the patch enters in clear are the user's new ones.
 */
export function refuseCarriedSecrets(
  current: Pick<ServerConfig, 'auth' | 'headers'>,
  patch: { auth?: unknown; headers?: unknown },
  origin: string,
): void {
  const next = { auth: patch.auth ?? current.auth, headers: patch.headers ?? current.headers };
  const stored = new Set(collectRefs(current).map((r) => r.secretRef));
  const carried = secretPaths(next).filter((s) => stored.has(s.ref));
  if (!carried.length) return;
  throw new McpConfigError(
    carried.map(({ path }) => ({
      path,
      message: `was stored for another origin: enter it again to send it to ${origin} (or confirm with { confirmSecrets: true })`,
    })),
  );
}

/** Refs given by the caller must belong to the record being edited (no borrowing other servers' secrets). */
export function checkRefs(input: { auth?: unknown; headers?: unknown }, allowed: readonly SecretRef[]): void {
  const ok = new Set(allowed.map((r) => r.secretRef));
  const issues: { path: string; message: string }[] = [];
  const walk = (v: unknown, path: string) => {
    if (v && typeof v === 'object') {
      if ('secretRef' in v && !ok.has(String((v as SecretRef).secretRef)))
        issues.push({ path, message: 'refers to a secret this server does not own' });
      else for (const [k, c] of Object.entries(v)) walk(c, path ? `${path}.${k}` : k);
    }
  };
  walk({ auth: input.auth, headers: input.headers }, '');
  if (issues.length) throw new McpConfigError(issues);
}

/** Headers for a server (stored, or a form's input with clear secrets), secrets decrypted. */
export async function openHeaders(
  vault: Vault,
  cfg: ConnectTarget,
): Promise<{ headers: Record<string, string>; secrets: string[] }> {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  const open = async (v: string | SecretRef, secret = true) => {
    const s = typeof v === 'string' ? v : await vault.get(v);
    if (secret) secrets.push(s);
    return s;
  };
  for (const h of cfg.headers) headers[h.name] = await open(h.value, h.secret ?? looksSecret(h.name));
  const a = cfg.auth;
  if (a.type === 'bearer') headers['Authorization'] = `Bearer ${await open(a.token)}`;
  else if (a.type === 'api-key') headers[a.headerName ?? 'x-api-key'] = await open(a.key);
  else if (a.type === 'basic') {
    const pw = await open(a.password);
    const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(`${a.username}:${pw}`)));
    secrets.push(b64);
    vault.remember(b64);
    headers['Authorization'] = `Basic ${b64}`;
  }
  return { headers, secrets };
}

/**
 * The clear values to scrub from what one server sent (its results, its errors). A page's vault
 * scrubs every value it has handled; a scoped vault (a backend serving many users) only this
 * server's own secrets and the derived values it was told of, so one user's header value never
 * blanks a word in another user's result.
 */
export function secretsOfServer(
  vault: Vault,
  cfg: Pick<ServerConfig, 'auth' | 'headers'> | undefined,
): Iterable<string> {
  if (!vault.scoped) return vault.knownValues;
  const own = cfg ? vault.valuesOf(collectRefs(cfg)) : [];
  return own.length ? [...vault.knownValues, ...own] : vault.knownValues;
}
