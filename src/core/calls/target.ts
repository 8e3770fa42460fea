// Which tool a call means: by model-facing name (the assistant's selection), or by server and
// MCP name (a person's call, a view's, or a model's within its assistant's tools).
import type { Tool } from '@modelcontextprotocol/client';
import type { Assistants } from '../assistants/registry.js';
import { McpConfigError, McpNotFoundError } from '../errors.js';
import { toolUi } from '../apps/ui-meta.js';
import type { HubState } from '../types.js';
import type { CallToolOptions } from './call-options.js';
import { McpToolError } from './records.js';

/** Which tool a call means; a model may only reach tools its assistant was given. */
export function resolveTarget(
  s: HubState,
  assistants: Assistants,
  target: Pick<CallToolOptions, 'name' | 'serverId' | 'tool' | 'source'>,
  assistantId: string,
): { serverId: string; tool: Tool; name: string } {
  const mine = assistants.tools(assistantId);
  // a view names its tool by server and MCP name only (never a model-facing name)
  if (target.name !== undefined && target.source !== 'app') {
    // a name of no tool is the model's mistake (unknown-tool, the model is told); a name that
    // is not a string is the host's
    if (typeof target.name !== 'string') throw new McpConfigError([{ path: 'name', message: 'must be a string' }]);
    const t = mine.byName.get(target.name) ?? mine.aliases.get(target.name);
    if (!t) throw new McpToolError('unknown-tool', `"${target.name}" is not a tool of assistant "${assistantId}".`);
    return { serverId: t.serverId, tool: t.tool, name: t.name };
  }
  const { serverId, tool: toolName } = target;
  if (!serverId || !toolName) throw new McpConfigError([{ path: 'name', message: 'give name, or serverId and tool' }]);
  if (!s.servers[serverId]) throw new McpNotFoundError('server', serverId);
  const named = mine.tools.find((x) => x.serverId === serverId && x.tool.name === toolName);
  if (target.source !== 'user' && target.source !== 'app') {
    if (!named) throw new McpToolError('unknown-tool', `"${toolName}" is not a tool of assistant "${assistantId}".`);
    return { serverId: named.serverId, tool: named.tool, name: named.name };
  }
  // a person's call or a view's (by the server's own name: a view cannot name another server's)
  const tool = s.catalogues[serverId]?.tools.find((t) => t.name === toolName);
  if (!tool) throw new McpToolError('unknown-tool', `Server "${s.servers[serverId].name}" has no tool "${toolName}".`);
  if (target.source === 'app' && !toolUi(tool).visibility.includes('app'))
    throw new McpToolError('not-app-tool', `"${toolName}" is not callable by a view (its visibility excludes "app").`);
  return { serverId, tool, name: target.source === 'app' ? toolName : (named?.name ?? toolName) };
}
