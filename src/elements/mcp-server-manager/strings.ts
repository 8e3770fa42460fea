import { REVISION_STRINGS } from '../../internal/server-identity.js';

/** The manager's user-visible strings (English); hosts replace any through `strings`. */
export const STRINGS = {
  title: 'MCP servers',
  empty: 'No MCP servers yet.',
  add: 'Add server',
  find: 'Find servers',
  formLoading: 'Loading the form…',
  formFailed: 'The form could not be loaded. Check the connection, then reload the page.',
  edit: 'Edit',
  remove: 'Remove',
  confirmRemove: 'Remove this server? Its saved secrets are deleted too.',
  keep: 'Keep',
  connect: 'Connect',
  /** A server saved from a registry entry whose newer version is reached another way. */
  registryUpdate: 'Version {version} of this server on {registry} uses a different address.',
  reviewUpdate: 'Review the change',
  /** In the edit form, Review: `{url}` is the new address, filled into URL. */
  reviewFilled: 'Version {version} is at {url}: it is filled in below. Check it, then Save.',
  /** In the edit form, Review, when the new address has parts to fill in (`{tenant}`). */
  reviewTemplated: 'Version {version} is at {url}: fill in its parts in URL below, then Save.',
  reviewHeaders: 'It asks for these headers:',
  disconnect: 'Disconnect',
  enabled: 'Enabled',
  relayOffer: 'This server does not allow calls from this page; the relay this site runs can reach it for you.',
  useRelay: 'Use the relay',
  /** After the offer, when the server has saved secrets: the button also confirms sending them there. */
  relayCarriesSecrets: 'Its saved credentials will go through the relay too.',
  /** A relayed server's row: `{relay}` is the relay's host. */
  viaRelay: 'via the relay {relay}',
  /** The edit form of a relayed server: `{relay}` is the relay's host. */
  relayLine: 'Reached via the relay {relay}: it sees every request to this server, saved credentials included.',
  tools: 'tools',
  /** After the count: `{n}` tools only the server's app views may call. */
  appOnly: '{n} only for app views',
  appOnlyTitle:
    'Tools this server’s own views (MCP Apps) call while they are shown. A model is never offered them, so they are not in the count.',
  /** One tool ("1 tool", not "1 tools"). */
  tool: 'tool',
  connected: 'Connected',
  connecting: 'Connecting',
  attemptOf: 'attempt {n} of {of}, {elapsed} s of {budget} s',
  disconnected: 'Not connected',
  error: 'Error',
  errorDetails: 'Details',
  'needs-sign-in': 'Sign-in needed',
  signIn: 'Sign in',
  /** After Connect, when the server wants a signed-in user (focus is on Sign in). */
  connectSignsIn: 'This server needs you to sign in before it connects: press Sign in.',
  signOut: 'Sign out',
  signingIn: 'Signing in…',
  signedInWith: 'Signed in with',
  /** When the server named the account: `{account}` is its name; the issuer's host follows. */
  signedInAs: 'Signed in as {account} with',
  scopesGranted: 'Allowed',
  /** Followed by a time: the sign-in renews itself (a refresh token). */
  expires: 'Renews by itself, next at',
  /** Followed by a time: the sign-in ends then (no refresh token). */
  tokenExpires: 'Sign in again after',
  name: 'Name',
  duplicateName:
    'Another server already has this name. Both are kept: their tools get distinct names, and an export numbers this one.',
  /** Under Name after Test connection filled an empty Name in. */
  nameFromServer: 'Filled in with the name the server gave itself; change it if you like.',
  url: 'URL',
  /** What to fix in a URL the hub refuses. */
  urlInvalid: 'Enter the server’s full address, starting with https:// (for example https://example.com/mcp).',
  urlHttps: 'Use an https:// address. Plain http:// works only for this computer (localhost, 127.0.0.1 or [::1]).',
  urlScheme: 'Use an address starting with https:// (or http:// for this computer).',
  urlCredentials: 'Remove the user name and password from the address, and enter them under Advanced → Authentication.',
  /** `{name}`: the saved server with the same URL. */
  duplicateUrl:
    '“{name}” already uses this URL. Saving adds a second entry for the same server (for other credentials or settings); to change that one, edit it instead.',
  advanced: 'Advanced: transport, sign-in, headers, timeout',
  transport: 'Transport',
  auto: 'Automatic',
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP + SSE (legacy)',
  jsonrpc: 'Plain JSON-RPC',
  auth: 'Authentication',
  none: 'None',
  bearer: 'Bearer token',
  'api-key': 'API key',
  basic: 'Username and password',
  oauth: 'Sign in (OAuth)',
  'client-credentials': 'Machine credentials (OAuth client)',
  'jwt-bearer': 'Identity assertion from this page (JWT bearer)',
  flow: 'Assertion',
  'id-jag': 'Enterprise sign-in: exchanged at the identity provider (ID-JAG)',
  workload: 'Workload identity: sent as is',
  flowHelp: 'The page supplies it with hub.setIdentityAssertion(); it is never stored.',
  idpTokenEndpoint: 'Identity provider token endpoint',
  idpClientId: 'Client ID at the identity provider',
  idpClientSecret: 'Client secret at the identity provider',
  idpClientSecretHelp: 'Optional: only if the identity provider requires one.',
  clientSecret: 'Client secret',
  clientAuthMethod: 'Client authentication',
  keyId: 'Client key id',
  keyIdHelp: 'From hub.createClientKey(); register its public key with the authorization server.',
  client_secret_basic: 'As HTTP Basic (client_secret_basic)',
  client_secret_post: 'In the request body (client_secret_post)',
  clientId: 'Client ID',
  clientIdHelp: 'Optional: a client registered with the server beforehand.',
  clientMetadataUrl: 'Client metadata URL',
  clientMetadataUrlHelp: 'Optional: where this site publishes its OAuth client metadata document (HTTPS).',
  scopes: 'Scopes',
  scopesHelp: 'Optional: permissions to ask for besides what the server asks, separated by spaces.',
  token: 'Token',
  headerName: 'Header name',
  apiKey: 'API key',
  username: 'Username',
  password: 'Password',
  keepSecret: 'Saved; leave empty to keep it',
  headers: 'Extra headers',
  addHeader: 'Add header',
  headerValue: 'Value',
  secret: 'Secret',
  removeHeader: 'Remove header',
  timeout: 'Timeout (seconds)',
  notice: 'This server will receive what the assistant sends to its tools. Add only servers you trust.',
  test: 'Test connection',
  testing: 'Testing…',
  testOk: 'Connected to',
  protocol: 'Protocol',
  revision: 'Protocol revision',
  revisionAuto: 'Automatic (the newest both speak)',
  session: 'Session',
  found: 'Tools found',
  save: 'Save',
  cancel: 'Cancel',
  importExport: 'Import / export (mcp.json)',
  import: 'Import',
  importLabel: 'mcp.json to import',
  imported: 'Imported',
  notImported: 'Not imported',
  export: 'Export',
  exportLabel: 'Exported mcp.json (secrets are not included)',
  download: 'Download',
  ...REVISION_STRINGS,
};
export type McpServerManagerStrings = typeof STRINGS;

/** A relay as the user reads it: its host (and path, when it is not at the root). */
export function relayLabel(relay: string): string {
  try {
    const u = new URL(relay);
    return `${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return relay;
  }
}

/** Look up one of the manager's strings (the host's replacement if it gave one). */
export type Translate = <K extends keyof McpServerManagerStrings>(key: K) => McpServerManagerStrings[K];
