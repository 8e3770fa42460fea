// The client the conformance suite drives: our built core in Node (records in a MemoryStorage), doing what
// each scenario asks of a client through the hub's public API only (servers.add, connect,
// catalogue, callTool, client(id)). Usage (by `conformance client --command`):
//   node client.mjs <serverUrl>   with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT) set
// It prints `conformance-client: ok` or `conformance-client: FAILED …` as its last stdout line
// (scripts/conformance.mjs reads it: the suite does not report a client's exit code) and exits 0/1;
// `WRONG …` instead of `FAILED …` for what no scenario tolerates: the hub refused the wrong way
// where a client error is allowed, or (relay mode) a request went around the relay
// (scripts/conformance.mjs fails those whatever the CLI says).
//
// A Node host with only the documented API: records in memory (`storage: new MemoryStorage()`,
// no IndexedDB to fake), events on the hub itself (`eventTarget: null`).
//
// Sign-in (`auth/*`) goes through the hub as a host without a browser does: the server is
// configured for OAuth (or machine credentials, from MCP_CONFORMANCE_CONTEXT); connecting is
// `hub.connect(id, { signIn: { open } })`, which signs in whenever the server asks and resolves
// once connected; a call refused for sign-in (`mcp-sign-in-required` with its `callId`, e.g. a
// step-up) is answered with `hub.signIn(id, { open })`; and `open` plays the user's browser: it follows the
// authorization URL with `fetch` (`redirect: 'manual'`) and resolves with the `Location` the
// authorization server sent back (code, state, iss), as the conformance examples do. There is no
// page here, so the hub gets a loopback `redirectUrl` (never fetched) and the host's Client ID
// Metadata Document URL; `auth/client-credentials-jwt`'s key is imported with hub.createClientKey();
// the ID-JAG and workload-identity scenarios get their assertion through hub.setIdentityAssertion(). Features the hub does not have are not faked; their scenarios are
// listed in expected-failures.json.
//
// Relay mode (MCP_CONFORMANCE_VIA_RELAY=1, the `conformance-relay` part): the same flows with the
// server reached only through our relay, started in this process (relay.mjs); the scenario fails
// when the hub fetched anything directly or the relay forwarded nothing.
import { McpHub, MemoryStorage } from '../../dist/core/index.js';
import { startConformanceRelay } from './relay.mjs';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const problems = [];
/** The flow refused where refusing is right, but not the way the spec asks (or bypassed the relay): never tolerated. */
let wrongRefusal = false;

const relay = process.env.MCP_CONFORMANCE_VIA_RELAY === '1' ? await startConformanceRelay() : undefined;

const hub = new McpHub({
  storeName: `conformance-${process.pid}`,
  storage: new MemoryStorage(),
  eventTarget: null,
  broadcast: false,
  logger: { warn: (m) => console.error(m) },
  redirectUrl: 'http://127.0.0.1:3000/callback',
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  // the DPoP scenarios' resources accept DPoP without saying so in their metadata
  dpop: 'prefer',
  // relay mode: the host's relay, and a fetch that refuses any URL outside it
  ...(relay ? { relayUrl: relay.url, fetch: relay.fetch } : {}),
});

/** How the scenario's server authenticates clients: OAuth sign-in, or machine credentials. */
function authFor(name) {
  if (!name.startsWith('auth/')) return undefined;
  if (name === 'auth/client-credentials-basic')
    return {
      type: 'client-credentials',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      method: 'client_secret_basic',
    };
  if (name === 'auth/client-credentials-jwt')
    // the scenario's key, imported into WebCrypto as non-extractable (keyId set below)
    return { type: 'client-credentials', clientId: context.client_id, method: 'private_key_jwt' };
  // a confidential client registered beforehand: Node keeps its secret (a page is refused one)
  if (name === 'auth/pre-registration')
    return { type: 'oauth', clientId: context.client_id, clientSecret: context.client_secret };
  if (name === 'auth/enterprise-managed-authorization')
    // the user's ID token (the page's identity assertion) is exchanged at the IdP for an ID-JAG
    return {
      type: 'jwt-bearer',
      flow: 'id-jag',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      method: 'client_secret_basic',
      idp: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
    };
  if (name === 'auth/wif-jwt-bearer')
    // the workload's JWT is the grant; the client is public
    return { type: 'jwt-bearer', flow: 'workload', clientId: context.client_id, method: 'none' };
  return { type: 'oauth' };
}
const auth = authFor(scenario);
if (auth?.method === 'private_key_jwt')
  auth.keyId = (
    await hub.createClientKey({ privateKeyPem: context.private_key_pem, alg: context.signing_algorithm ?? 'ES256' })
  ).keyId;

// the page's identity assertion for jwt-bearer servers: the scenario's ID token or workload JWT
if (auth?.type === 'jwt-bearer')
  hub.setIdentityAssertion('*', () => (auth.flow === 'id-jag' ? context.idp_id_token : context.valid_jwt));
// the page trusts the scenario's identity provider with that ID token (and no other endpoint)
if (auth?.idp) hub.setSignInOptions({ idpTokenEndpoints: [auth.idp.tokenEndpoint] });

// `auto`, as a host would configure a server it knows nothing about: the hub picks the transport
// (and, once it speaks 2026-07-28, the revision). No retries: a scenario server answers once.
const server = await hub.servers.add({
  name: 'conformance',
  url,
  transport: 'auto',
  retries: 0,
  timeout: 20,
  ...(auth ? { auth } : {}),
  ...(relay ? { relay: relay.url } : {}),
});
const id = server.id;

/** The user's browser at the authorization server: it answers at once with a redirect. */
async function open(authorizationUrl) {
  // (relay mode: the browser's own fetch, around the relay: a browser navigates there itself)
  const response = await (relay?.browserFetch ?? fetch)(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl).href;
}

// A call waiting on sign-in (a 401, or a 403 insufficient_scope) is given it as a user clicking
// "Sign in" on its card would: once, however many times it is asked for meanwhile. Sign-ins at
// connect are the connect's own (`signIn` below).
let current;
let signIns = 0;
hub.addEventListener('mcp-sign-in-required', (e) => {
  if (!e.detail.callId) return;
  current ??= (async () => {
    // a host that signs in whenever asked: the hub must end a step-up that cannot succeed
    // (auth/scope-retry-limit); this cap only keeps a broken hub from hanging the run
    if (++signIns > 20) throw new Error('more than 20 sign-ins asked for');
    await hub.signIn(id, { open });
  })()
    .catch((err) => problems.push(`sign-in: ${err?.code ?? err?.name}: ${err?.message}`))
    .finally(() => (current = undefined));
});

/** Connect, signing in whenever the server asks (the hub's one awaitable path for hosts without a browser). */
const connect = () => hub.connect(id, { signIn: { open } });

/** A value that satisfies a (simple) JSON schema, for required arguments. */
function sample(schema) {
  if (!schema || typeof schema !== 'object') return 'x';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('default' in schema) return schema.default;
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'x';
  }
}

// Elicitations are answered as a user who accepts would: the form with nothing typed (the hub
// fills the schema's defaults), or the scenario's own answer; a URL is accepted (opened).
const ANSWERS = { 'sep-2322-client-request-state': { confirmed: true } };
// Answered inside the listener: the request is pending before its event is dispatched.
hub.addEventListener('mcp-elicitation-request', (e) => {
  const { id: eid, mode } = e.detail.elicitation;
  try {
    hub.respondToElicitation(
      eid,
      mode === 'url' ? { action: 'accept' } : { action: 'accept', content: ANSWERS[scenario] ?? {} },
    );
  } catch (err) {
    problems.push(`elicitation: ${err?.code ?? err?.name}: ${err?.message}`);
  }
});

/** Arguments for a tool: a sample value for each required property. */
function argumentsFor(schema) {
  const args = {};
  for (const name of schema?.required ?? []) args[name] = sample(schema.properties?.[name]);
  return args;
}

/** One tool call the way a host's "Try it" makes it: the whole pipeline, validation included. */
async function call(tool, args) {
  const record = await hub.callTool({ serverId: id, tool, arguments: args, source: 'user' });
  // a tool's own isError result is the server's answer, not a client failure
  if (record.status !== 'success' && record.error?.code !== 'tool-error')
    problems.push(`tools/call ${tool}: ${record.status} ${record.error?.code}: ${record.error?.message}`);
  return record;
}

/** Run a request and keep its failure as a problem (the next steps still run). */
async function attempt(what, run) {
  try {
    return await run();
  } catch (e) {
    problems.push(`${what}: ${e?.code ?? e?.name}: ${e?.message}`);
  }
}

/** The default: connect (handshake and discovery), call every tool, read every resource, get every prompt. */
async function exercise() {
  const catalogue = await connect();
  for (const tool of catalogue.tools) await call(tool.name, argumentsFor(tool.inputSchema));
  for (const resource of catalogue.resources)
    await attempt(`resources/read ${resource.uri}`, () => hub.client(id).readResource(resource.uri));
  for (const prompt of catalogue.prompts) {
    const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'x']));
    await attempt(`prompts/get ${prompt.name}`, () => hub.client(id).getPrompt(prompt.name, args));
  }
}

/**
 * Skills (SEP-2640) as a chat page offers them: list them (no file is read), load the first when
 * the user picks it (its SKILL.md, verified against the entry), then read its other files as the
 * model would ask for them. A skill that fails verification is refused with McpSkillError and
 * nothing of it is used: that is the host's right answer, so it is reported, not a failure.
 */
async function skills({ load }) {
  await connect();
  if (!hub.offersSkills(id)) throw new Error('the server declared no skills extension');
  const listed = await hub.listSkills(id);
  if (!listed.length) throw new Error('skills/list returned no skill');
  if (!load) return;
  const skill = listed[0];
  let loaded;
  try {
    loaded = await hub.loadSkill(id, skill.uri);
  } catch (e) {
    if (e?.name !== 'McpSkillError') throw e;
    console.error(`skill refused as it should be: ${e.code}: ${e.message}`);
    return;
  }
  for (const file of loaded.files === 'dynamic' ? [] : loaded.files)
    if (file.uri !== loaded.uri) await hub.readSkillFile(id, loaded.uri, file.uri);
}

/** What each scenario asks of a client, where the default `exercise` is not it. */
const flows = {
  // listing skills opens the window in which no skill file may be read
  'sep-2640-client-no-prefetch': () => skills({ load: false }),
  'sep-2640-client-verify-digest': () => skills({ load: true }),
  'sep-2640-client-verify-size': () => skills({ load: true }),
  'sep-2640-client-verify-frontmatter': () => skills({ load: true }),
  // the handshake and discovery are the test
  initialize: () => connect(),
  // a step-up that can never succeed: the hub stops signing in at the spec's retry limit and the
  // connect ends with the typed refusal naming the scope (anything else is a failure here)
  'auth/scope-retry-limit': async () => {
    const error = await connect().then(
      () => undefined,
      (e) => e,
    );
    wrongRefusal = true;
    if (error?.name !== 'McpAuthError' || error.code !== 'insufficient-scope' || !error.scope)
      throw new Error(
        `expected McpAuthError insufficient-scope naming the scope, got ${error ? `${error.name} ${error.code}: ${error.message}` : 'a connection'}`,
      );
    if (!error.message.includes(error.scope)) throw new Error(`the message does not name the scope: ${error.message}`);
    if (hub.status(id).error?.code !== 'insufficient-scope') throw new Error(`status ${hub.status(id).status}`);
    wrongRefusal = false;
    console.error(`refused as it should be: ${error.code} (${error.scope}): ${error.message}`);
  },
  // every request's _meta and MCP-Protocol-Version header; version retry; discovery is enough
  'request-metadata': () => hub.connect(id),
  // list only (its server answers nothing else): listing must never fetch the network `$ref`
  'json-schema-ref-no-deref': () => hub.connect(id),
  // send back the focal tool's inputSchema as the hub keeps it: dropped keywords show
  'json-schema-2020-12-preservation': async () => {
    await hub.connect(id);
    const focal = hub.catalogue(id)?.tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool is not in the catalogue');
    await call('json_schema_echo', { schema: focal.inputSchema });
  },
  // the scenario gives the calls to make, verbatim (a `null` for a boolean included, to see that
  // its Mcp-Param header is left out): through the low-level handle, which does not validate
  'http-custom-headers': async () => {
    await hub.connect(id);
    for (const c of context.toolCalls ?? [])
      await attempt(`tools/call ${c.name}`, () => hub.client(id).callTool(c.name, c.arguments ?? {}));
  },
};

let exitCode = 0;
try {
  await (flows[scenario] ?? exercise)();
} catch (e) {
  problems.unshift(`${e?.code ?? e?.name}: ${e?.message}`);
}
const disposed = await Promise.race([
  hub.dispose().then(() => true),
  new Promise((r) => setTimeout(() => r(false), 5000).unref()),
]);
if (!disposed) problems.push('hub.dispose() did not finish within 5 s');
if (relay) {
  console.error(relay.summary());
  // a request around the relay (or none through it) fails the scenario even where the scenario
  // tolerates a client error: WRONG is never tolerated
  const bypassed = relay.problems();
  if (bypassed.length) {
    problems.unshift(...bypassed);
    wrongRefusal = true;
  }
  await relay.close();
}
if (problems.length) {
  exitCode = 1;
  for (const p of problems) console.error(p);
  console.log(
    `conformance-client: ${wrongRefusal ? 'WRONG' : 'FAILED'} ${problems[0].replace(/\s+/g, ' ').slice(0, 300)}`,
  );
} else console.log('conformance-client: ok');
process.exit(exitCode);
