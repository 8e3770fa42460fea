// The manager form's state: the fields as typed, a saved config as fields, the fields as the
// config input the core validates, and which field shows the error of a config path.
import type { ProtocolRevision, ServerConfig, ServerConfigInput, TransportKind } from '../../core/index.js';

export interface FormState {
  name: string;
  url: string;
  transport: TransportKind;
  revision: ProtocolRevision;
  authType: 'none' | 'bearer' | 'api-key' | 'basic' | 'oauth' | 'client-credentials' | 'jwt-bearer';
  token: string;
  /** OAuth: a pre-registered client id, a Client ID Metadata Document URL, scopes (space-separated). */
  clientId: string;
  clientMetadataUrl: string;
  scopes: string;
  /** Machine credentials: the client secret (empty keeps the saved one) and how it is sent. */
  clientSecret: string;
  clientAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  /** Machine credentials with private_key_jwt: the key of hub.createClientKey(). */
  keyId: string;
  /** JWT bearer: the page's assertion exchanged at the identity provider (id-jag) or sent as is. */
  flow: 'id-jag' | 'workload';
  idpTokenEndpoint: string;
  idpClientId: string;
  idpClientSecret: string;
  headerName: string;
  apiKey: string;
  username: string;
  password: string;
  headers: { name: string; value: string; secret: boolean; keep?: boolean }[];
  timeout: string;
}

export const EMPTY_FORM: FormState = {
  name: '',
  url: '',
  transport: 'auto',
  revision: 'auto',
  authType: 'none',
  token: '',
  clientId: '',
  clientMetadataUrl: '',
  scopes: '',
  clientSecret: '',
  clientAuthMethod: 'client_secret_basic',
  keyId: '',
  flow: 'id-jag',
  idpTokenEndpoint: '',
  idpClientId: '',
  idpClientSecret: '',
  headerName: 'x-api-key',
  apiKey: '',
  username: '',
  password: '',
  headers: [],
  timeout: '30',
};

/** The form for editing a stored server; saved secrets are never shown (empty means "keep"). */
export function formFromServer(server: ServerConfig): FormState {
  const auth = server.auth;
  const machine = auth.type === 'client-credentials' || auth.type === 'jwt-bearer' ? auth : undefined;
  return {
    ...EMPTY_FORM,
    name: server.name,
    url: server.url,
    transport: server.transport,
    revision: server.revision,
    authType: auth.type,
    headerName: auth.type === 'api-key' ? auth.headerName : 'x-api-key',
    username: auth.type === 'basic' ? auth.username : '',
    clientId: auth.type === 'oauth' ? (auth.clientId ?? '') : (machine?.clientId ?? ''),
    clientMetadataUrl: auth.type === 'oauth' ? (auth.clientMetadataUrl ?? '') : '',
    scopes: ((auth.type === 'oauth' ? auth.scopes : machine?.scopes) ?? []).join(' '),
    clientAuthMethod: machine?.method ?? 'client_secret_basic',
    keyId: machine?.keyId ?? '',
    flow: auth.type === 'jwt-bearer' ? auth.flow : 'id-jag',
    idpTokenEndpoint: auth.type === 'jwt-bearer' ? (auth.idp?.tokenEndpoint ?? '') : '',
    idpClientId: auth.type === 'jwt-bearer' ? (auth.idp?.clientId ?? '') : '',
    headers: server.headers.map((h) => ({
      name: h.name,
      value: typeof h.value === 'string' ? h.value : '',
      secret: h.secret,
      keep: typeof h.value !== 'string',
    })),
    timeout: String(server.timeout),
  };
}

/** Map a config path (auth.token, headers.0.value…) to the form field that shows its error. */
export function fieldOf(path: string): string {
  if (path.startsWith('auth.'))
    return (
      {
        'auth.token': 'token',
        'auth.key': 'apiKey',
        'auth.headerName': 'headerName',
        'auth.username': 'username',
        'auth.password': 'password',
        'auth.clientId': 'clientId',
        'auth.clientMetadataUrl': 'clientMetadataUrl',
        'auth.clientSecret': 'clientSecret',
        'auth.keyId': 'keyId',
        'auth.flow': 'flow',
        'auth.method': 'clientAuthMethod',
        'auth.idp': 'idpTokenEndpoint',
        'auth.idp.tokenEndpoint': 'idpTokenEndpoint',
        'auth.idp.clientId': 'idpClientId',
        'auth.idp.clientSecret': 'idpClientSecret',
      }[path] ?? (path.startsWith('auth.scopes') ? 'scopes' : 'authType')
    );
  const m = /^headers\.(\d+)\.(name|value)/.exec(path);
  if (m) return `header-${m[1]}-${m[2]}`;
  return path.split('.')[0] || 'form';
}

/** The JWT-bearer settings of the form (the assertion itself comes from the page, never from here). */
function jwtBearerInput(
  f: FormState,
  sa: Extract<ServerConfig['auth'], { type: 'jwt-bearer' }> | undefined,
  keep: <T>(typed: string, ref: T | undefined) => string | T,
) {
  const method = f.clientAuthMethod;
  return {
    type: 'jwt-bearer' as const,
    flow: f.flow,
    clientId: f.clientId.trim(),
    method,
    ...(method === 'private_key_jwt' ? { keyId: f.keyId.trim() } : {}),
    ...(method === 'client_secret_basic' || method === 'client_secret_post'
      ? { clientSecret: keep(f.clientSecret, sa?.clientSecret) }
      : {}),
    ...(f.scopes.trim() ? { scopes: f.scopes.trim().split(/\s+/) } : {}),
    ...(f.flow === 'id-jag'
      ? {
          idp: {
            tokenEndpoint: f.idpTokenEndpoint.trim(),
            clientId: f.idpClientId.trim(),
            ...(f.idpClientSecret || sa?.idp?.clientSecret
              ? { clientSecret: keep(f.idpClientSecret, sa?.idp?.clientSecret) }
              : {}),
          },
        }
      : {}),
  };
}

/**
 * The form as a config input. Editing (`stored`: the saved config), an empty secret field keeps
 * the saved secret.
 */
export function formInput(f: FormState, stored: ServerConfig | undefined): ServerConfigInput {
  const sa = stored?.auth;
  const keep = <T>(typed: string, ref: T | undefined) => (typed === '' && ref ? ref : typed);
  const auth =
    f.authType === 'bearer'
      ? { type: 'bearer' as const, token: keep(f.token, sa?.type === 'bearer' ? sa.token : undefined) }
      : f.authType === 'api-key'
        ? {
            type: 'api-key' as const,
            headerName: f.headerName.trim(),
            key: keep(f.apiKey, sa?.type === 'api-key' ? sa.key : undefined),
          }
        : f.authType === 'basic'
          ? {
              type: 'basic' as const,
              username: f.username,
              password: keep(f.password, sa?.type === 'basic' ? sa.password : undefined),
            }
          : f.authType === 'oauth'
            ? {
                type: 'oauth' as const,
                ...(f.clientId.trim() ? { clientId: f.clientId.trim() } : {}),
                ...(f.clientMetadataUrl.trim() ? { clientMetadataUrl: f.clientMetadataUrl.trim() } : {}),
                ...(f.scopes.trim() ? { scopes: f.scopes.trim().split(/\s+/) } : {}),
              }
            : f.authType === 'client-credentials'
              ? {
                  type: 'client-credentials' as const,
                  clientId: f.clientId.trim(),
                  ...(f.clientAuthMethod === 'private_key_jwt'
                    ? { keyId: f.keyId.trim() }
                    : {
                        clientSecret: keep(
                          f.clientSecret,
                          sa?.type === 'client-credentials' ? sa.clientSecret : undefined,
                        ),
                      }),
                  method: f.clientAuthMethod,
                  ...(f.scopes.trim() ? { scopes: f.scopes.trim().split(/\s+/) } : {}),
                }
              : f.authType === 'jwt-bearer'
                ? jwtBearerInput(f, sa?.type === 'jwt-bearer' ? sa : undefined, keep)
                : { type: 'none' as const };
  const headers = f.headers.map((h, i) => {
    const old = stored?.headers[i];
    const value =
      h.keep && h.value === '' && old && typeof old.value !== 'string' && old.name === h.name ? old.value : h.value;
    return { name: h.name.trim(), value, secret: h.secret };
  });
  const timeout = Number(f.timeout);
  return {
    name: f.name,
    url: f.url.trim(),
    transport: f.transport,
    revision: f.revision,
    auth,
    headers,
    timeout: Number.isFinite(timeout) && f.timeout.trim() !== '' ? timeout : (f.timeout as never),
  } as ServerConfigInput;
}
