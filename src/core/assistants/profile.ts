import type { Tool } from '@modelcontextprotocol/client';
import { McpConfigError } from '../errors.js';
import { toIssues } from '../schemas.js';
import { z } from '../zod-setup.js';
import type { ModelTool } from '../providers/types.js';
import type { HubState } from '../types.js';
import { toolNames } from './given-names.js';
import { modelVisible } from '../apps/ui-meta.js';

/** How calls of an assistant are approved. */
export const ApprovalModeSchema = z.enum(['auto', 'always-ask', 'trusted-only']);
export type ApprovalMode = z.infer<typeof ApprovalModeSchema>;

/** An assistant's id: 1–100 letters, digits and `_ . : -`. */
export const AssistantIdSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(100),
    z.regex(/^[A-Za-z0-9_.:-]+$/, 'may contain only letters, digits and _ . : -'),
  );
const NonEmpty = z.string().check(z.minLength(1));
const ServerSelectionSchema = z.strictObject({
  tools: z.optional(z.array(NonEmpty).check(z.maxLength(10000))),
});
/** One tool of one server (pinned). */
const ToolRefSchema = z.strictObject({ serverId: NonEmpty, tool: NonEmpty });
/**
 * One trusted tool: with the origin and definition hash it was trusted for (assistants/trust.ts);
 * entries without them (stored before the binding existed) are untrusted until allowed again.
 */
const TrustedSchema = z.strictObject({
  serverId: NonEmpty,
  tool: NonEmpty,
  origin: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  hash: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
});
const ServersSchema = z.union([z.literal('all'), z.record(z.string(), ServerSelectionSchema)]);
const ToolRefs = z.array(ToolRefSchema).check(z.maxLength(10000));
const TrustedRefs = z.array(TrustedSchema).check(z.maxLength(10000));

const profileFields = {
  servers: z._default(ServersSchema, 'all'),
  approval: z._default(ApprovalModeSchema, 'always-ask'),
  trusted: z._default(TrustedRefs, []),
  /** Tools always sent when `toolsFor` is given a budget (even past it). */
  pinned: z._default(ToolRefs, []),
  updatedAt: z._default(z.number().check(z.int(), z.nonnegative()), 0),
};

/**
 * An assistant ("GPT") profile. `servers: 'all'` (the default for an assistant nobody configured)
 * offers every enabled server's tools; a record offers only the servers listed, each with all its
 * tools (`{}`) or only those in `tools`.
 */
export const AssistantProfileSchema = z.strictObject({ assistantId: AssistantIdSchema, ...profileFields });
export type AssistantProfile = z.infer<typeof AssistantProfileSchema>;

/**
 * A profile as stored in IndexedDB (`assistant:<id>`). The id keeps its first name, `gptId`: a
 * page running an older copy of the bundle on the same origin reads these records with a strict
 * schema and would set a renamed record aside as corrupt. Read as an `AssistantProfile`.
 */
export const StoredAssistantProfileSchema = z.pipe(
  z.strictObject({ gptId: AssistantIdSchema, ...profileFields }),
  z.transform(({ gptId, ...rest }): AssistantProfile => ({ assistantId: gptId, ...rest })),
);
export type StoredAssistantProfile = z.input<typeof StoredAssistantProfileSchema>;

/** A profile in its stored form (see `StoredAssistantProfileSchema`). */
export function toStoredProfile({ assistantId, ...rest }: AssistantProfile): StoredAssistantProfile {
  return { gptId: assistantId, ...rest };
}

export const AssistantPatchSchema = z.strictObject({
  servers: z.optional(ServersSchema),
  approval: z.optional(ApprovalModeSchema),
  trusted: z.optional(TrustedRefs),
  pinned: z.optional(ToolRefs),
});
export type AssistantPatch = z.input<typeof AssistantPatchSchema>;

/**
 * How options name an assistant. `gptId` is the name the first version used; hosts still pass it.
 */
export interface AssistantRef {
  /** The assistant (its profile: tools, approval mode, trusted tools). Default `default`. */
  assistantId?: string;
  /** @deprecated use assistantId */
  gptId?: string;
}

/**
 * The assistant options name, from `assistantId` or its old name `gptId` (when both are given
 * they must agree), unvalidated; `undefined` when neither is given.
 */
export function namedAssistant(options: AssistantRef = {}): string | undefined {
  const { assistantId, gptId } = options;
  if (assistantId !== undefined && gptId !== undefined && assistantId !== gptId)
    throw new McpConfigError([
      { path: 'gptId', message: 'differs from assistantId (gptId is its old name: give one)' },
    ]);
  return assistantId ?? gptId;
}

/** The assistant options name (default `default`), validated: `McpConfigError` naming the field given. */
export function assistantIdOf(options: AssistantRef = {}): string {
  const id = namedAssistant(options) ?? 'default';
  const r = AssistantIdSchema.safeParse(id);
  if (r.success) return r.data;
  const path = options.assistantId === undefined && options.gptId !== undefined ? 'gptId' : 'assistantId';
  throw new McpConfigError(toIssues(r.error, path));
}

export function defaultProfile(assistantId: string): AssistantProfile {
  return { assistantId, servers: 'all', approval: 'always-ask', trusted: [], pinned: [], updatedAt: 0 };
}

const MAX_DESCRIPTION = 1024;

/**
 * The description a model sees: the server's description (then its title, when the description
 * does not say it), and short hints from the
 * annotations (spec defaults apply to fields a present annotations object leaves out).
 * Annotations are hints from an untrusted server: they inform, they never approve anything.
 */
export function modelDescription(tool: Tool): string {
  const title = (tool.title ?? tool.annotations?.title)?.trim();
  // the server's own text first (G4F shows it, and models read the start); a title adds to it
  let text = (tool.description ?? '').trim();
  if (title && !text.toLowerCase().includes(title.toLowerCase())) text = text ? `${text} (${title})` : title;
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

/**
 * The tools an assistant may use, named for the model. Pure: depends only on the state. Names
 * are given across every server the hub knows, not per assistant: choosing tools or switching a
 * server off never renames another tool, and a tool is called the same for every assistant.
 */
export function assistantTools(state: HubState, assistantId: string): ModelTool[] {
  const profile = state.assistants[assistantId] ?? defaultProfile(assistantId);
  const names = toolNames(state);
  const out: ModelTool[] = [];
  for (const server of Object.values(state.servers)) {
    if (!server.enabled) continue;
    const sel = profile.servers === 'all' ? {} : profile.servers[server.id];
    if (!sel) continue;
    const cat = state.catalogues[server.id];
    if (!cat) continue;
    const allowed = sel.tools ? new Set(sel.tools) : undefined;
    for (const tool of cat.tools) {
      if (allowed && !allowed.has(tool.name)) continue;
      // MCP Apps: a tool only its app may call never reaches the model
      if (!modelVisible(tool)) continue;
      const name = names.get(`${server.id}\u0000${tool.name}`);
      if (!name) continue;
      out.push({
        name,
        description: modelDescription(tool),
        inputSchema: modelSchema(tool),
        serverId: server.id,
        tool,
      });
    }
  }
  return out;
}
