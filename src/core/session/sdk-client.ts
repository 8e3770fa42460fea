// The SDK client of a session: the capabilities the hub declares, how it negotiates the revision
// the server config asks for, and the handlers through which the hub answers what servers ask.
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { MODERN_REVISION, type ProtocolRevision } from '../schemas.js';
import { TASKS_EXTENSION } from './tasks.js';
import type { OpenOptions } from './types.js';
import { SchemaValidator } from './validator.js';

/** The lists whose changes a server announces. */
export type Lists = 'tools' | 'resources' | 'prompts';

/** Client options for a revision setting: `auto` negotiates, a 2025 pin offers only that version. */
function negotiation(
  revision: ProtocolRevision | undefined,
  kind: 'streamable-http' | 'sse',
  handshake2025 = false,
): Pick<ClientOptions, 'versionNegotiation' | 'supportedProtocolVersions'> {
  // legacy HTTP+SSE predates server/discover: never probe there; nor at a server known to speak
  // only the 2025 handshake (the probe's MCP headers may trip its CORS preflight)
  if ((!revision || revision === 'auto') && (kind === 'sse' || handshake2025))
    return { versionNegotiation: { mode: 'legacy' } };
  if (!revision || revision === 'auto') return { versionNegotiation: { mode: 'auto' } };
  if (revision === MODERN_REVISION) return { versionNegotiation: { mode: { pin: revision } } };
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [revision] };
}

export function newClient(
  o: OpenOptions,
  kind: 'streamable-http' | 'sse',
  handshake2025: boolean,
  lists: (l: Lists) => void,
  updated: (uri: string) => void,
): Client {
  const changed = (l: Lists) => ({ autoRefresh: false, onChanged: () => lists(l) });
  const client = new Client(o.clientInfo, {
    // the tasks extension (2026-07-28) is declared on every request: the server decides per call
    capabilities: {
      ...(o.answers?.capabilities ?? {}),
      // MCP Apps: the hub shows servers' views (src/apps); declared in both eras
      extensions: {
        ...o.answers?.capabilities.extensions,
        [TASKS_EXTENSION]: {},
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      },
    },
    jsonSchemaValidator: new SchemaValidator(),
    // input_required rounds (2026-07-28) are answered by the SDK: a requestState-only round is
    // simply retried; the hub declares no elicitation/sampling/roots capability yet, so a server
    // cannot ask for those (it answers -32021, mapped to `input-required`), and a server that
    // never stops asking ends at the SDK's round cap — a typed error, never a hang.
    // With listChanged handlers a 2026-07-28 connection opens `subscriptions/listen`, a stream.
    ...(o.notifications === false
      ? {}
      : { listChanged: { tools: changed('tools'), resources: changed('resources'), prompts: changed('prompts') } }),
    ...negotiation(o.revision, kind, handshake2025),
  });
  // 2025: on the session's GET stream (or a response stream); 2026-07-28: on a listen stream
  client.setNotificationHandler('notifications/resources/updated', (n) => updated(n.params.uri));
  const a = o.answers;
  if (a) {
    const caps = a.capabilities;
    if (caps.elicitation)
      client.setRequestHandler('elicitation/create', (request, ctx) => a.elicit(request.params, ctx.mcpReq.signal));
    if (caps.sampling)
      client.setRequestHandler('sampling/createMessage', (request, ctx) => a.sample(request.params, ctx.mcpReq.signal));
    if (caps.roots) client.setRequestHandler('roots/list', () => a.roots());
    client.setNotificationHandler('notifications/message', (n) => a.onLog(n.params));
    client.setNotificationHandler('notifications/elicitation/complete', (n) =>
      a.onElicitationComplete(n.params.elicitationId),
    );
  }
  return client;
}
