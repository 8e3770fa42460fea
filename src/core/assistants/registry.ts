// Assistant profiles (`hub.assistants`): which servers and tools an assistant may use, how its
// calls are approved, which tools it trusts, and its tools in each provider's format.
import { McpToolSelectionChangedEvent } from '../../events/index.js';
import { KEYS, type HubContext } from '../context.js';
import { McpNotFoundError } from '../errors.js';
import { adapterFor, type ModelTool, type Provider } from '../providers/index.js';
import { parseOrThrow } from '../schemas.js';
import { setAssistant } from '../state.js';
import {
  AssistantPatchSchema,
  AssistantProfileSchema,
  assistantTools,
  defaultProfile,
  gptIdSchema,
  type AssistantPatch,
  type AssistantProfile,
} from './profile.js';

/** The assistant registry: `hub.assistants`. */
export interface AssistantRegistry {
  /** The profile (the defaults when nobody configured this assistant). */
  get(gptId?: string): AssistantProfile;
  list(): AssistantProfile[];
  update(gptId: string, patch: AssistantPatch): Promise<AssistantProfile>;
  /** Select a server for the assistant: `true` all its tools, a list some, `false` none. */
  setServer(gptId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile>;
  /** Add or remove a tool from the assistant's trusted tools. */
  trust(gptId: string, serverId: string, tool: string, trusted?: boolean): Promise<AssistantProfile>;
}

/** An assistant's tools as the model sees them, with a lookup by model-facing name. */
export interface AssistantTools {
  readonly tools: ModelTool[];
  readonly byName: Map<string, ModelTool>;
}

export class Assistants {
  #memo = new Map<string, AssistantTools & { servers: unknown; catalogues: unknown; profile: unknown }>();

  constructor(private readonly ctx: HubContext) {}

  get(gptId = 'default'): AssistantProfile {
    return this.ctx.store.state.assistants[gptId] ?? defaultProfile(gptId);
  }

  list(): AssistantProfile[] {
    return Object.values(this.ctx.store.state.assistants);
  }

  async update(gptId: string, patch: AssistantPatch): Promise<AssistantProfile> {
    const { ctx } = this;
    await ctx.ready;
    const id = parseOrThrow(gptIdSchema, gptId);
    const parsed = parseOrThrow(AssistantPatchSchema, patch);
    const base = this.get(id);
    // per-field merge into the freshest stored profile (another tab may have changed other fields)
    const merged = await ctx.storage.update<AssistantProfile>(KEYS.assistant + id, (old) => ({
      ...(old ?? base),
      ...parsed,
      gptId: id,
      updatedAt: Math.max(Date.now(), (old?.updatedAt ?? 0) + 1),
    }));
    const profile = AssistantProfileSchema.parse(merged);
    setAssistant(ctx, profile);
    ctx.broadcast('assistant', id);
    ctx.emit(new McpToolSelectionChangedEvent({ gptId: id, profile, source: 'local' }));
    return profile;
  }

  async setServer(gptId: string, serverId: string, selection: boolean | string[]): Promise<AssistantProfile> {
    await this.ctx.ready;
    const servers = this.ctx.store.state.servers;
    if (!servers[serverId]) throw new McpNotFoundError('server', serverId);
    const current = this.get(gptId);
    const next: Record<string, { tools?: string[] }> =
      current.servers === 'all'
        ? Object.fromEntries(Object.keys(servers).map((id) => [id, {}]))
        : { ...current.servers };
    if (selection === false) delete next[serverId];
    else next[serverId] = selection === true ? {} : { tools: [...new Set(selection)] };
    return this.update(gptId, { servers: next });
  }

  /** Trust or distrust a tool; `also` patches other fields in the same write. */
  async trust(
    gptId: string,
    serverId: string,
    tool: string,
    trusted = true,
    also: AssistantPatch = {},
  ): Promise<AssistantProfile> {
    await this.ctx.ready;
    const current = this.get(gptId);
    const rest = current.trusted.filter((t) => !(t.serverId === serverId && t.tool === tool));
    return this.update(gptId, { ...also, trusted: trusted ? [...rest, { serverId, tool }] : rest });
  }

  /** The tools an assistant may use, named for the model (memoised on the state's identity). */
  tools(gptId: string): AssistantTools {
    const s = this.ctx.store.state;
    const profile = s.assistants[gptId];
    const memo = this.#memo.get(gptId);
    if (memo && memo.servers === s.servers && memo.catalogues === s.catalogues && memo.profile === profile) return memo;
    const tools = assistantTools(s, gptId);
    const next = {
      servers: s.servers,
      catalogues: s.catalogues,
      profile,
      tools,
      byName: new Map(tools.map((t) => [t.name, t])),
    };
    this.#memo.set(gptId, next);
    return next;
  }

  /** The tools an assistant may use, each as the model sees it (name, description, schema). */
  modelTools(options: { gptId?: string } = {}): ModelTool[] {
    return this.tools(parseOrThrow(gptIdSchema, options.gptId ?? 'default')).tools;
  }

  /** The assistant's tools in a provider's request format. */
  toolsFor(provider: Provider, options: { gptId?: string } = {}): unknown[] {
    return adapterFor(provider).tools(this.modelTools(options));
  }
}
