// What the hub façade exposes beside its methods: the registry objects (`hub.servers`,
// `hub.assistants`, `hub.calls`) as object literals over the parts' methods, so destructuring
// them (`const { add } = hub.servers`) keeps working, the typed event target it extends, and the
// empty state it starts from.
import type { McpHubEventMap } from '../events/index.js';
import type { AssistantRegistry, Assistants } from './assistants/registry.js';
import type { CallHistory } from './calls/history.js';
import type { CallPipeline } from './calls/pipeline.js';
import type { CallRegistry } from './calls/records.js';
import type { ServerRegistry, Servers } from './servers/registry.js';
import type { HubState } from './types.js';

export function serverRegistry(servers: Servers): ServerRegistry {
  return {
    list: () => servers.list(),
    get: (id) => servers.get(id),
    add: (input) => servers.add(input),
    update: (id, patch, options) => servers.update(id, patch, options),
    remove: (id) => servers.remove(id),
  };
}

export function assistantRegistry(assistants: Assistants): AssistantRegistry {
  return {
    get: (assistantId) => assistants.get(assistantId),
    list: () => assistants.list(),
    update: (assistantId, patch) => assistants.update(assistantId, patch),
    setServer: (assistantId, serverId, selection) => assistants.setServer(assistantId, serverId, selection),
    trust: (assistantId, serverId, tool, trusted = true) => assistants.trust(assistantId, serverId, tool, trusted),
    pin: (assistantId, serverId, tool, pinned = true) => assistants.pin(assistantId, serverId, tool, pinned),
  };
}

export function callRegistry(history: CallHistory, pipeline: CallPipeline): CallRegistry {
  return {
    get: (id) => history.get(id),
    list: (filter = {}) => history.list(filter),
    approve: (id, options = {}) => pipeline.decide(id, { ok: true, always: !!options.always }),
    deny: (id, reason) => pipeline.decide(id, { ok: false, reason }),
    cancel: (id) => pipeline.cancel(id),
    runAgain: (id, options) => pipeline.runAgain(id, options),
    clear: (filter = {}) => history.clear(filter),
  };
}

/** An EventTarget whose `addEventListener` is typed for the hub's events. */
export class HubEventTarget extends EventTarget {
  override addEventListener<K extends keyof McpHubEventMap>(
    type: K,
    listener: (ev: McpHubEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    super.addEventListener(type, listener, options);
  }
}

/** The hub's state before anything is loaded. */
export function emptyHubState(mode: HubState['storage']['mode']): HubState {
  return {
    ready: false,
    servers: {},
    connections: {},
    catalogues: {},
    storage: { mode },
    assistants: {},
    calls: {},
    activeCalls: {},
    elicitations: {},
    samplings: {},
    logs: {},
    signIns: {},
    warnings: [],
    resourceSubscriptions: {},
  };
}
