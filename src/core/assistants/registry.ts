// Assistant profiles (`hub.assistants`): which servers and tools an assistant may use, how its
// calls are approved, which tools it trusts, and its tools in each provider's format.
import type { Tool } from '@modelcontextprotocol/client';
import { McpToolSelectionChangedEvent } from '../../events/index.js';
import { KEYS, type HubContext } from '../context.js';
import { McpNotFoundError } from '../errors.js';
import { suffixedName } from './names.js';
import { adapterFor, PROVIDERS, type ModelTool, type Provider } from '../providers/index.js';
import { parseOrThrow } from '../schemas.js';
import { setAssistant } from '../state.js';
import { z } from '../zod-setup.js';
import {
  AssistantPatchSchema,
  AssistantIdSchema,
  assistantIdOf,
  assistantTools,
  defaultProfile,
  StoredAssistantProfileSchema,
  toStoredProfile,
  type AssistantPatch,
  type AssistantProfile,
  type AssistantRef,
  type StoredAssistantProfile,
} from './profile.js';
import { estimateTokens, selectWithinBudget, ToolIndex } from './ranking.js';
import { bindTrust } from './trust.js';

/**
 * Which assistant, and optionally a context budget: with `maxTools` and/or `maxTokens` the
 * assistant's tools are ranked by relevance to `query` (locally) and the best that fit are
 * returned, pinned tools always. Without a budget, every tool in the usual order.
 */
export interface ToolsForOptions extends AssistantRef {
  /** What the user asked (e.g. the last user message); ranks the tools when a budget is given. */
  query?: string;
  /** At most this many tools (pinned tools are kept even past it). */
  maxTools?: number;
  /** At most this many tokens of tool definitions, estimated as characters / 4 of each tool's JSON. */
  maxTokens?: number;
  /**
   * Also the tools of servers that are down (connection `error` or `needs-sign-in`): the
   * assistant's whole selection. Default `false`: a model is offered only tools that can run.
   */
  includeUnavailable?: boolean;
}

const count = (max: number) => z.optional(z.number().check(z.int(), z.nonnegative(), z.maximum(max)));
const ToolsForOptionsSchema = z.strictObject({
  assistantId: z.optional(AssistantIdSchema),
  gptId: z.optional(AssistantIdSchema),
  query: z.optional(z.string().check(z.maxLength(100_000))),
  maxTools: count(100_000),
  maxTokens: count(100_000_000),
  includeUnavailable: z.optional(z.boolean()),
  // modelTools only: whose format the token estimate uses (toolsFor passes its own)
  provider: z.optional(z.enum(PROVIDERS as [Provider, ...Provider[]])),
});

/** The assistant registry: `hub.assistants`. */
export interface AssistantRegistry {
  /** The profile (the defaults when nobody configured this assistant). */
  get(assistantId?: string): AssistantProfile;
  /** The profiles that were configured (others use the defaults). */
  list(): AssistantProfile[];
  /** Change fields of a profile (per-field merge, safe across tabs). */
  update(assistantId: string, patch: AssistantPatch): Promise<AssistantProfile>;
  /** Select a server for the assistant: `true` all its tools, a list some, `false` none. */
  setServer(assistantId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile>;
  /** Add or remove a tool from the assistant's trusted tools. */
  trust(assistantId: string, serverId: string, tool: string, trusted?: boolean): Promise<AssistantProfile>;
  /** Pin or unpin a tool: pinned tools are always sent when `toolsFor` is given a budget. */
  pin(assistantId: string, serverId: string, tool: string, pinned?: boolean): Promise<AssistantProfile>;
}

/** An assistant's tools as the model sees them, with a lookup by model-facing name. */
export interface AssistantTools {
  readonly tools: ModelTool[];
  readonly byName: Map<string, ModelTool>;
  /**
   * Names a tool may have had before: its name with the collision suffix (names.ts). A call by
   * one still reaches the tool when a collision went away under a running conversation.
   */
  readonly aliases: Map<string, ModelTool>;
}

/** The memo of one assistant's tools, with what a budget needs, built on first use. */
interface Memo extends AssistantTools {
  servers: unknown;
  catalogues: unknown;
  profile: unknown;
  index?: ToolIndex;
  costs: Partial<Record<Provider, number[]>>;
  /** The tools offered while the servers in `down` (a sorted id list) are down. */
  offered?: { down: string; tools: ModelTool[] };
}

/**
 * Connection statuses in which a server's tools are not offered to a model: its last connect
 * failed, or it waits for a sign-in. A server that is only not connected yet is connected by the
 * call (the pipeline connects on demand), so its tools stay offered.
 */
export const UNAVAILABLE_STATUSES: ReadonlySet<string> = new Set(['error', 'needs-sign-in']);

/** The ids of the servers that are down right now, sorted and joined (a memo key). */
function downKey(connections: Readonly<Record<string, { status: string }>>): string {
  const down: string[] = [];
  for (const [id, c] of Object.entries(connections)) if (UNAVAILABLE_STATUSES.has(c.status)) down.push(id);
  return down.sort().join('\u0000');
}

export class Assistants {
  #memo = new Map<string, Memo>();

  constructor(private readonly ctx: HubContext) {}

  get(assistantId = 'default'): AssistantProfile {
    return this.ctx.store.settled.assistants[assistantId] ?? defaultProfile(assistantId);
  }

  list(): AssistantProfile[] {
    return Object.values(this.ctx.store.state.assistants);
  }

  async update(assistantId: string, patch: AssistantPatch): Promise<AssistantProfile> {
    const { ctx } = this;
    await ctx.ready;
    // named as a field, so the error says which argument was wrong
    const { assistantId: id } = parseOrThrow(z.object({ assistantId: AssistantIdSchema }), { assistantId });
    const parsed = parseOrThrow(AssistantPatchSchema, patch);
    const base = this.get(id);
    // per-field merge into the freshest stored profile (another tab may have changed other fields);
    // stored with its id under the old name (see StoredAssistantProfileSchema)
    const merged = await ctx.storage.update<StoredAssistantProfile>(KEYS.assistant + id, (old) => ({
      ...(old ?? toStoredProfile(base)),
      ...parsed,
      gptId: id,
      updatedAt: Math.max(Date.now(), (old?.updatedAt ?? 0) + 1),
    }));
    const profile = StoredAssistantProfileSchema.parse(merged);
    setAssistant(ctx, profile);
    ctx.broadcast('assistant', id);
    ctx.emit(new McpToolSelectionChangedEvent({ assistantId: id, profile, source: 'local' }));
    return profile;
  }

  async setServer(assistantId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile> {
    await this.ctx.ready;
    parseOrThrow(
      z.object({ selection: z.union([z.boolean(), z.array(z.string().check(z.minLength(1), z.maxLength(10_000)))]) }),
      {
        selection,
      },
    );
    const servers = this.ctx.store.state.servers;
    if (!servers[serverId]) throw new McpNotFoundError('server', serverId);
    const current = this.get(assistantId);
    const next: Record<string, { tools?: string[] }> =
      current.servers === 'all'
        ? Object.fromEntries(Object.keys(servers).map((id) => [id, {}]))
        : { ...current.servers };
    if (selection === false) delete next[serverId];
    else next[serverId] = selection === true ? {} : { tools: [...new Set(selection)] };
    return this.update(assistantId, { servers: next });
  }

  /**
   * Trust or distrust a tool; `also` patches other fields in the same write. Trust is bound to the
   * server's origin and the tool's definition now (`definition`, else the catalogue's): a tool not
   * listed yet is stored unbound, which asks once before it is trusted (assistants/trust.ts).
   */
  async trust(
    assistantId: string,
    serverId: string,
    tool: string,
    trusted = true,
    also: AssistantPatch = {},
    definition?: Tool,
  ): Promise<AssistantProfile> {
    await this.ctx.ready;
    const current = this.get(assistantId);
    const rest = current.trusted.filter((t) => !(t.serverId === serverId && t.tool === tool));
    if (!trusted) return this.update(assistantId, { ...also, trusted: rest });
    const s = this.ctx.store.state;
    const tools = s.catalogues[serverId]?.tools;
    const binding = await bindTrust(
      serverId,
      tool,
      s.servers[serverId]?.url,
      definition ?? tools?.find((t) => t.name === tool),
    );
    return this.update(assistantId, { ...also, trusted: [...rest, binding] });
  }

  /**
   * Drop every assistant's trust in a server's tools: it was removed, or now points at another
   * origin, and what the user trusted was that server there.
   */
  async forgetServer(serverId: string): Promise<void> {
    for (const p of this.list())
      if (p.trusted.some((t) => t.serverId === serverId))
        await this.update(p.assistantId, { trusted: p.trusted.filter((t) => t.serverId !== serverId) });
  }

  /** Pin or unpin a tool for budgeted `toolsFor` calls. */
  async pin(assistantId: string, serverId: string, tool: string, pinned = true): Promise<AssistantProfile> {
    await this.ctx.ready;
    parseOrThrow(z.object({ serverId: z.string().check(z.minLength(1)), tool: z.string().check(z.minLength(1)) }), {
      serverId,
      tool,
    });
    const current = this.get(assistantId);
    const rest = current.pinned.filter((t) => !(t.serverId === serverId && t.tool === tool));
    return this.update(assistantId, { pinned: pinned ? [...rest, { serverId, tool }] : rest });
  }

  /** The tools an assistant may use, named for the model (memoised on the state's identity). */
  tools(assistantId: string): AssistantTools {
    return this.#tools(assistantId);
  }

  #tools(assistantId: string): Memo {
    const s = this.ctx.store.settled;
    const profile = s.assistants[assistantId];
    const memo = this.#memo.get(assistantId);
    if (memo && memo.servers === s.servers && memo.catalogues === s.catalogues && memo.profile === profile) return memo;
    const tools = assistantTools(s, assistantId);
    const next: Memo = {
      servers: s.servers,
      catalogues: s.catalogues,
      profile,
      tools,
      byName: new Map(tools.map((t) => [t.name, t])),
      aliases: aliasesOf(tools, s.servers),
      costs: {},
    };
    this.#memo.set(assistantId, next);
    return next;
  }

  /**
   * The tools an assistant may use, each as the model sees it (name, description, schema); with
   * a budget, the most relevant to `query` that fit (see `ToolsForOptions`).
   */
  modelTools(options: ToolsForOptions & { provider?: Provider } = {}): ModelTool[] {
    const budget = parseOrThrow(ToolsForOptionsSchema, options);
    const assistantId = assistantIdOf(budget);
    const memo = this.#tools(assistantId);
    const offered = budget.includeUnavailable ? memo.tools : this.#offered(memo);
    if (budget.maxTools === undefined && budget.maxTokens === undefined) return offered;
    const provider = budget.provider ?? 'openai';
    const costs = (memo.costs[provider] ??= toolCosts(provider, memo.tools));
    const index = (memo.index ??= new ToolIndex(memo.tools));
    // the index and costs cover every tool of the assistant; a tool of a server that is down is
    // neither ranked nor pinned in
    const usable = offered === memo.tools ? undefined : new Set(offered);
    const ok = (i: number) => !usable || usable.has(memo.tools[i]!);
    const order = (budget.query?.trim() ? index.rank(budget.query) : memo.tools.map((_, i) => i)).filter(ok);
    const profile = this.get(assistantId);
    const pinned = new Set<number>();
    memo.tools.forEach((t, i) => {
      if (ok(i) && profile.pinned.some((p) => p.serverId === t.serverId && p.tool === t.tool.name)) pinned.add(i);
    });
    return selectWithinBudget(order, costs, pinned, budget).map((i) => memo.tools[i]!);
  }

  /** The assistant's tools minus those of servers that are down (memoised on which are down). */
  #offered(memo: Memo): ModelTool[] {
    const down = downKey(this.ctx.store.settled.connections);
    if (!down) return memo.tools;
    if (memo.offered?.down === down) return memo.offered.tools;
    const ids = new Set(down.split('\u0000'));
    const tools = memo.tools.filter((t) => !ids.has(t.serverId));
    memo.offered = { down, tools };
    return tools;
  }

  /** The assistant's tools in a provider's request format (with a budget: see `modelTools`). */
  toolsFor(provider: Provider, options: ToolsForOptions = {}): unknown[] {
    const adapter = adapterFor(provider);
    return adapter.tools(this.modelTools({ ...options, provider }));
  }
}

function aliasesOf(tools: readonly ModelTool[], servers: Readonly<Record<string, { name: string }>>) {
  const out = new Map<string, ModelTool>();
  for (const t of tools) {
    const alias = suffixedName({
      serverKey: t.serverId,
      serverName: servers[t.serverId]?.name ?? '',
      toolName: t.tool.name,
    });
    if (alias !== t.name) out.set(alias, t);
  }
  return out;
}

/** Each tool's token estimate in a provider's format (Gemini: its function declaration). */
export function toolCosts(provider: Provider, tools: readonly ModelTool[]): number[] {
  const adapter = adapterFor(provider);
  return tools.map((t) => {
    const [entry] = adapter.tools([t]) as { functionDeclarations?: unknown[] }[];
    return estimateTokens(provider === 'gemini' ? entry!.functionDeclarations![0] : entry);
  });
}
