// The model-facing names of every tool, and the table of names given (issue 23 item 4). A name
// handed to a model must keep meaning the same tool while a conversation may still use it, so
// each catalogue carries the names its tools were given (`givenNames`): stored and synced with
// it, dropped with the server (its catalogue goes) or the tool (a catalogue without it).
import { nameTools } from './names.js';
import type { HubState, ServerCatalogue } from '../types.js';

type Named = { serverKey: string; serverName: string; toolName: string; rank: number; given?: string };

/** Names of every tool of every server with a catalogue (enabled or not), by `serverId\0tool`. */
const namesMemo = new WeakMap<object, { servers: unknown; names: Map<string, string> }>();
export function toolNames(state: Pick<HubState, 'servers' | 'catalogues'>): Map<string, string> {
  const memo = namesMemo.get(state.catalogues);
  if (memo?.servers === state.servers) return memo.names;
  const entries: Named[] = [];
  for (const server of Object.values(state.servers)) {
    const cat = state.catalogues[server.id];
    // names given under another server name are given anew (renaming a server is the user's act)
    const given = cat?.givenNames?.serverName === server.name ? cat.givenNames.tools : undefined;
    for (const tool of cat?.tools ?? []) {
      const g = given && Object.hasOwn(given, tool.name) ? given[tool.name] : undefined;
      entries.push({
        serverKey: server.id,
        serverName: server.name,
        toolName: tool.name,
        rank: server.createdAt,
        ...(g ? { given: g } : {}),
      });
    }
  }
  const names = new Map<string, string>();
  for (const [name, e] of nameTools(entries)) names.set(`${e.serverKey}\u0000${e.toolName}`, name);
  namesMemo.set(state.catalogues, { servers: state.servers, names });
  return names;
}

/**
 * `cat` (server `id`'s new catalogue) with the names its tools have once it is in `state`: the
 * names it carries (another tab gave them), else those the previous catalogue remembered, else
 * new ones that take no name already given. Without the server in `state`, `cat` unchanged.
 */
export function withGivenNames(
  state: Pick<HubState, 'servers' | 'catalogues'>,
  id: string,
  cat: ServerCatalogue,
): ServerCatalogue {
  const server = state.servers[id];
  if (!server) return cat;
  const held = (c: ServerCatalogue | undefined) =>
    c?.givenNames?.serverName === server.name ? c.givenNames.tools : undefined;
  const carried = { ...held(state.catalogues[id]), ...held(cat) };
  const draft: ServerCatalogue = { ...cat, givenNames: { serverName: server.name, tools: carried } };
  const names = toolNames({ servers: state.servers, catalogues: { ...state.catalogues, [id]: draft } });
  const tools: Record<string, string> = {};
  for (const t of cat.tools) {
    const name = names.get(`${id}\u0000${t.name}`);
    if (name) tools[t.name] = name;
  }
  return { ...cat, givenNames: { serverName: server.name, tools } };
}
