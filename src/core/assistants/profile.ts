import type { Tool } from '@modelcontextprotocol/client';
import { z } from '../zod-setup.js';
import { nameTools } from '../names.js';
import type { ModelTool } from '../providers/types.js';
import type { HubState } from '../types.js';

/** How calls of an assistant are approved. */
export const ApprovalModeSchema = z.enum(['auto', 'always-ask', 'trusted-only']);
export type ApprovalMode = z.infer<typeof ApprovalModeSchema>;

const gptIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'may contain only letters, digits and _ . : -');
const ServerSelectionSchema = z.object({ tools: z.array(z.string().min(1)).max(10000).optional() }).strict();
/** One tool of one server (trusted or pinned). */
const TrustedSchema = z.object({ serverId: z.string().min(1), tool: z.string().min(1) }).strict();

/**
 * An assistant ("GPT") profile. `servers: 'all'` (the default for an assistant nobody configured)
 * offers every enabled server's tools; a record offers only the servers listed, each with all its
 * tools (`{}`) or only those in `tools`.
 */
export const AssistantProfileSchema = z
  .object({
    gptId: gptIdSchema,
    servers: z.union([z.literal('all'), z.record(z.string(), ServerSelectionSchema)]).default('all'),
    approval: ApprovalModeSchema.default('always-ask'),
    trusted: z.array(TrustedSchema).max(10000).default([]),
    /** Tools always sent when `toolsFor` is given a budget (even past it). */
    pinned: z.array(TrustedSchema).max(10000).default([]),
    updatedAt: z.number().int().nonnegative().default(0),
  })
  .strict();
export type AssistantProfile = z.infer<typeof AssistantProfileSchema>;

export const AssistantPatchSchema = z
  .object({
    servers: z.union([z.literal('all'), z.record(z.string(), ServerSelectionSchema)]).optional(),
    approval: ApprovalModeSchema.optional(),
    trusted: z.array(TrustedSchema).max(10000).optional(),
    pinned: z.array(TrustedSchema).max(10000).optional(),
  })
  .strict();
export type AssistantPatch = z.input<typeof AssistantPatchSchema>;

export { gptIdSchema };

export function defaultProfile(gptId: string): AssistantProfile {
  return { gptId, servers: 'all', approval: 'always-ask', trusted: [], pinned: [], updatedAt: 0 };
}

export function isTrusted(p: AssistantProfile, serverId: string, tool: string): boolean {
  return p.trusted.some((t) => t.serverId === serverId && t.tool === tool);
}

const MAX_DESCRIPTION = 1024;

/**
 * The description a model sees: title, the server's description, and short hints from the
 * annotations (spec defaults apply to fields a present annotations object leaves out).
 * Annotations are hints from an untrusted server: they inform, they never approve anything.
 */
export function modelDescription(tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title;
  let text = (tool.description ?? '').trim();
  if (title && !text.toLowerCase().startsWith(title.toLowerCase())) text = text ? `${title}: ${text}` : title;
  const a = tool.annotations;
  const hints: string[] = [];
  if (a) {
    const readOnly = a.readOnlyHint === true;
    if (!readOnly) hints.push(a.destructiveHint === false ? 'May change things.' : 'May change or delete things.');
    if (a.openWorldHint !== false) hints.push('Talks to outside systems.');
    if (readOnly || a.idempotentHint === true) hints.push('Safe to retry.');
  }
  const suffix = hints.length ? ` [${hints.join(' ')}]` : '';
  if (text.length + suffix.length > MAX_DESCRIPTION) text = `${text.slice(0, MAX_DESCRIPTION - suffix.length - 1)}…`;
  return text + suffix || 'No description.';
}

/** The input schema as providers want it: always an object schema with properties. */
export function modelSchema(tool: Tool): Record<string, unknown> {
  const s = (tool.inputSchema ?? {}) as Record<string, unknown>;
  const { $schema: _drop, ...rest } = s;
  return { ...rest, type: 'object', properties: (rest.properties as object | undefined) ?? {} };
}

/** The tools an assistant may use, named for the model. Pure: depends only on the state. */
export function assistantTools(state: HubState, gptId: string): ModelTool[] {
  const profile = state.assistants[gptId] ?? defaultProfile(gptId);
  const entries: { serverKey: string; serverName: string; toolName: string; tool: Tool; serverId: string }[] = [];
  for (const server of Object.values(state.servers)) {
    if (!server.enabled) continue;
    const sel = profile.servers === 'all' ? {} : profile.servers[server.id];
    if (!sel) continue;
    const cat = state.catalogues[server.id];
    if (!cat) continue;
    const allowed = sel.tools ? new Set(sel.tools) : undefined;
    for (const tool of cat.tools) {
      if (allowed && !allowed.has(tool.name)) continue;
      entries.push({ serverKey: server.id, serverName: server.name, toolName: tool.name, tool, serverId: server.id });
    }
  }
  return [...nameTools(entries)].map(([name, e]) => ({
    name,
    description: modelDescription(e.tool),
    inputSchema: modelSchema(e.tool),
    serverId: e.serverId,
    tool: e.tool,
  }));
}
