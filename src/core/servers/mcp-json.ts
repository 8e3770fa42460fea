// `mcp.json`-style configuration, as Claude Desktop, Cursor and VS Code write it:
//   { "mcpServers": { "<name>": { "url": "...", "type": "http" | "sse", "headers": { ... } } } }
// (VS Code's "servers" key is read too). Secrets are never written in clear: they become
// REDACTED, which an import refuses with a field error asking for the value.
import { McpConfigError, type FieldIssue } from '../errors.js';
import {
  ServerConfigInputSchema,
  toIssues,
  type ServerConfig,
  type ServerConfigInput,
  type TransportKind,
} from '../schemas.js';

export const REDACTED = '<redacted>';

/** One server in mcp.json form. Fields beyond url/type/headers are ours and optional. */
export interface McpJsonServer {
  url: string;
  type?: 'http' | 'streamable-http' | 'sse' | 'jsonrpc';
  headers?: Record<string, string>;
  /** A pinned protocol revision (absent: negotiated). */
  revision?: string;
  /** OAuth sign-in settings (never a token: those stay in the vault of the page that signed in). */
  auth?:
    | { type: 'oauth'; clientId?: string; clientSecret?: string; clientMetadataUrl?: string; scopes?: string[] }
    | {
        type: 'client-credentials';
        clientId: string;
        clientSecret?: string;
        keyId?: string;
        method?: string;
        scopes?: string[];
      }
    | {
        type: 'jwt-bearer';
        flow: 'id-jag' | 'workload';
        clientId: string;
        clientSecret?: string;
        keyId?: string;
        method?: string;
        scopes?: string[];
        idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string };
      };
  description?: string;
  /** The relay the server is reached through (the package's relay entry). */
  relay?: string;
  timeout?: number;
  retries?: number;
  enabled?: boolean;
}

const TYPE_OF: Record<TransportKind, McpJsonServer['type'] | undefined> = {
  auto: undefined,
  'streamable-http': 'http',
  sse: 'sse',
  jsonrpc: 'jsonrpc',
};

/** The servers as mcp.json text, secrets redacted. */
export function toMcpJson(servers: readonly ServerConfig[]): string {
  const out: Record<string, McpJsonServer> = {};
  for (const s of servers) {
    const headers: Record<string, string> = {};
    for (const h of s.headers) headers[h.name] = typeof h.value === 'string' ? h.value : REDACTED;
    const a = s.auth;
    if (a.type === 'bearer') headers.Authorization = `Bearer ${REDACTED}`;
    else if (a.type === 'api-key') headers[a.headerName] = REDACTED;
    else if (a.type === 'basic') headers.Authorization = `Basic ${REDACTED}`;
    let name = s.name;
    for (let n = 2; name in out; n++) name = `${s.name} (${n})`;
    const type = TYPE_OF[s.transport];
    out[name] = {
      url: s.url,
      ...(type ? { type } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(s.revision && s.revision !== 'auto' ? { revision: s.revision } : {}),
      ...(a.type === 'oauth'
        ? {
            auth: {
              type: 'oauth' as const,
              ...(a.clientId ? { clientId: a.clientId } : {}),
              ...(a.clientSecret ? { clientSecret: REDACTED } : {}),
              ...(a.clientMetadataUrl ? { clientMetadataUrl: a.clientMetadataUrl } : {}),
              ...(a.scopes?.length ? { scopes: [...a.scopes] } : {}),
            },
          }
        : a.type === 'client-credentials'
          ? {
              auth: {
                type: 'client-credentials' as const,
                clientId: a.clientId,
                ...(a.clientSecret ? { clientSecret: REDACTED } : {}),
                ...(a.keyId ? { keyId: a.keyId } : {}),
                method: a.method,
                ...(a.scopes?.length ? { scopes: [...a.scopes] } : {}),
              },
            }
          : a.type === 'jwt-bearer'
            ? {
                auth: {
                  type: 'jwt-bearer' as const,
                  flow: a.flow,
                  clientId: a.clientId,
                  ...(a.clientSecret ? { clientSecret: REDACTED } : {}),
                  ...(a.keyId ? { keyId: a.keyId } : {}),
                  method: a.method,
                  ...(a.scopes?.length ? { scopes: [...a.scopes] } : {}),
                  ...(a.idp
                    ? {
                        idp: {
                          tokenEndpoint: a.idp.tokenEndpoint,
                          clientId: a.idp.clientId,
                          ...(a.idp.clientSecret ? { clientSecret: REDACTED } : {}),
                        },
                      }
                    : {}),
                },
              }
            : {}),
      ...(s.description ? { description: s.description } : {}),
      ...(s.relay ? { relay: s.relay } : {}),
      timeout: s.timeout,
      retries: s.retries,
      ...(s.enabled ? {} : { enabled: false }),
    };
  }
  return JSON.stringify({ mcpServers: out }, null, 2);
}

export interface McpJsonEntryError {
  readonly name: string;
  readonly issues: readonly FieldIssue[];
}

/** Parse mcp.json text into server inputs; each bad entry is reported, not thrown. */
export function fromMcpJson(
  text: string,
  options: {
    idpAllowed?: (tokenEndpoint: string) => boolean;
    /** Whether the host allows this relay (`relayUrl`, `allowedRelays`); absent: no relay is. */
    relayAllowed?: (relay: string) => boolean;
  } = {},
): {
  entries: { name: string; input: ServerConfigInput }[];
  errors: McpJsonEntryError[];
} {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new McpConfigError([{ path: '', message: `is not valid JSON (${(e as Error).message})` }]);
  }
  const root = doc && typeof doc === 'object' ? (doc as Record<string, unknown>) : undefined;
  const map = (root?.mcpServers ?? root?.servers) as Record<string, unknown> | undefined;
  if (!map || typeof map !== 'object' || Array.isArray(map))
    throw new McpConfigError([
      { path: 'mcpServers', message: 'is missing: expected { "mcpServers": { "<name>": { "url": … } } }' },
    ]);
  const entries: { name: string; input: ServerConfigInput }[] = [];
  const errors: McpJsonEntryError[] = [];
  for (const [name, raw] of Object.entries(map)) {
    const e = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    if (typeof e.command === 'string') {
      errors.push({
        name,
        issues: [
          {
            path: 'command',
            message:
              'stdio servers (a command to run) cannot run in a browser: serve them with `npx mcp-chat-elements relay --config mcp.json` and import what it prints',
          },
        ],
      });
      continue;
    }
    // a field that is there but of the wrong shape is refused, not silently dropped
    const shape: FieldIssue[] = [];
    if (e.headers !== undefined && (!e.headers || typeof e.headers !== 'object' || Array.isArray(e.headers)))
      shape.push({ path: 'headers', message: 'must be an object of header names to values' });
    else
      for (const [k, v] of Object.entries((e.headers as Record<string, unknown> | undefined) ?? {}))
        if (typeof v !== 'string') shape.push({ path: `headers.${k}`, message: 'must be a string' });
    if (e.type !== undefined && !['http', 'streamable-http', 'sse', 'jsonrpc'].includes(e.type as string))
      shape.push({ path: 'type', message: 'must be "http", "streamable-http", "sse" or "jsonrpc"' });
    if (shape.length) {
      errors.push({ name, issues: shape });
      continue;
    }
    const headers = (e.headers as Record<string, unknown> | undefined) ?? {};
    const redacted = Object.entries(headers).filter(([, v]) => typeof v === 'string' && v.includes(REDACTED));
    if (redacted.length) {
      errors.push({
        name,
        issues: redacted.map(([k]) => ({
          path: `headers.${k}`,
          message: 'the secret was not exported; enter it and import again',
        })),
      });
      continue;
    }
    const type = e.type;
    const transport: TransportKind =
      type === 'http' || type === 'streamable-http'
        ? 'streamable-http'
        : type === 'sse'
          ? 'sse'
          : type === 'jsonrpc'
            ? 'jsonrpc'
            : 'auto';
    // only OAuth settings travel in `auth` (other kinds are headers in mcp.json)
    const kind = e.auth && typeof e.auth === 'object' ? (e.auth as { type?: unknown }).type : undefined;
    const oauth = kind === 'oauth' || kind === 'client-credentials' || kind === 'jwt-bearer' ? e.auth : undefined;
    if (e.auth !== undefined && !oauth) {
      errors.push({
        name,
        issues: [
          { path: 'auth', message: 'only { "type": "oauth" | "client-credentials" | "jwt-bearer", … } is read here' },
        ],
      });
      continue;
    }
    const o = oauth as { clientSecret?: unknown; idp?: { clientSecret?: unknown } } | undefined;
    const unexported = [
      ...(o?.clientSecret === REDACTED ? ['auth.clientSecret'] : []),
      ...(o?.idp?.clientSecret === REDACTED ? ['auth.idp.clientSecret'] : []),
    ];
    if (unexported.length) {
      errors.push({
        name,
        issues: unexported.map((path) => ({ path, message: 'the secret was not exported; enter it and import again' })),
      });
      continue;
    }
    // a file must not choose where the user's ID token goes (issue 27 item 1): only an
    // identity provider the page allows (`idpTokenEndpoints`)
    const idp = (oauth as { idp?: { tokenEndpoint?: unknown } } | undefined)?.idp;
    if (idp !== undefined && !(typeof idp?.tokenEndpoint === 'string' && options.idpAllowed?.(idp.tokenEndpoint))) {
      errors.push({
        name,
        issues: [
          {
            path: 'auth.idp.tokenEndpoint',
            message:
              "is not an identity provider this page allows (the hub's idpTokenEndpoints option): the user's identity assertion would be sent there",
          },
        ],
      });
      continue;
    }
    // nor which relay sees the server's requests and credentials (issue 33 item 2): only one the
    // host runs or allows (`relayUrl`, `allowedRelays`)
    if (e.relay !== undefined && !(typeof e.relay === 'string' && options.relayAllowed?.(e.relay))) {
      errors.push({
        name,
        issues: [
          {
            path: 'relay',
            message:
              "is not a relay this page allows (the hub's relayUrl or allowedRelays option): every request to the server, credentials included, would go through it",
          },
        ],
      });
      continue;
    }
    const candidate = {
      name,
      url: e.url,
      transport,
      ...(oauth ? { auth: oauth } : {}),
      ...(e.revision !== undefined ? { revision: e.revision } : {}),
      headers: Object.entries(headers).map(([k, v]) => ({ name: k, value: typeof v === 'string' ? v : String(v) })),
      ...(typeof e.description === 'string' ? { description: e.description } : {}),
      ...(e.relay !== undefined ? { relay: e.relay } : {}),
      ...(e.timeout !== undefined ? { timeout: e.timeout } : {}),
      ...(e.retries !== undefined ? { retries: e.retries } : {}),
      ...(e.enabled !== undefined ? { enabled: e.enabled } : {}),
    };
    const r = ServerConfigInputSchema.safeParse(candidate);
    if (r.success) entries.push({ name, input: candidate as ServerConfigInput });
    else errors.push({ name, issues: toIssues(r.error) });
  }
  return { entries, errors };
}
