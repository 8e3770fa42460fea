// Changes to the hub's snapshot that several parts make, each with the event it implies.
import { McpServerStatusChangedEvent, McpToolsChangedEvent, type ToolsChangedReason } from '../events/index.js';
import { withGivenNames } from './assistants/given-names.js';
import type { AssistantProfile } from './assistants/profile.js';
import type { HubContext } from './context.js';
import { McpConnectionError, type McpElementsError } from './errors.js';
import type { ServerConfig } from './schemas.js';
import { withEntry } from './store.js';
import type { ConnectAttempt, ConnectionState, ConnectionStatus, ServerCatalogue } from './types.js';

/** Put (or remove, with `undefined`) a server; a new server starts `disconnected`. */
export function setServer(ctx: HubContext, id: string, cfg: ServerConfig | undefined): void {
  ctx.store.update((s) => ({
    ...s,
    servers: withEntry(s.servers, id, cfg ? Object.freeze(cfg) : undefined),
    connections: cfg
      ? s.connections[id]
        ? s.connections
        : withEntry(s.connections, id, Object.freeze({ status: 'disconnected' as const, since: Date.now() }))
      : withEntry(s.connections, id, undefined),
  }));
}

/**
 * Set (or drop) a server's catalogue; its tools keep the names they were given (given-names.ts).
 * Returns the catalogue as the state now holds it (with those names).
 */
export function setCatalogue<C extends ServerCatalogue | undefined>(ctx: HubContext, id: string, cat: C): C {
  let stored: ServerCatalogue | undefined;
  ctx.store.update((s) => {
    // a re-listing on the same session keeps what the connect recorded it was found with
    const prev = s.catalogues[id]?.connectedWith;
    const c = cat && cat.connectedWith === undefined && prev !== undefined ? { ...cat, connectedWith: prev } : cat;
    stored = c ? Object.freeze(withGivenNames(s, id, c)) : undefined;
    return { ...s, catalogues: withEntry(s.catalogues, id, stored) };
  });
  return stored as C;
}

export function setAssistant(ctx: HubContext, profile: AssistantProfile): void {
  ctx.store.update((s) => ({ ...s, assistants: withEntry(s.assistants, profile.assistantId, Object.freeze(profile)) }));
}

/** Set a server's connection status; `mcp-server-status-changed` when it changed or failed. */
export function setStatus(
  ctx: HubContext,
  id: string,
  status: ConnectionStatus,
  error?: McpElementsError,
  link?: Pick<ConnectionState, 'protocolVersion' | 'era' | 'transport'>,
): void {
  const prev = ctx.store.state.connections[id];
  if (!ctx.store.state.servers[id]) return;
  const info = error
    ? Object.freeze({
        code: error.code,
        message: error.message,
        ...(error instanceof McpConnectionError && error.status ? { status: error.status } : {}),
      })
    : undefined;
  const next: ConnectionState = Object.freeze({ status, since: Date.now(), ...(info ? { error: info } : {}), ...link });
  ctx.store.update((s) => ({ ...s, connections: withEntry(s.connections, id, next) }));
  if (prev?.status !== status || error)
    ctx.emit(
      new McpServerStatusChangedEvent({
        serverId: id,
        status,
        previous: prev?.status ?? 'disconnected',
        ...(info ? { error: info } : {}),
        ...link,
      }),
    );
}

/** A connect moved on to its next attempt: shown in the state, no event (the status is unchanged). */
export function setConnectAttempt(ctx: HubContext, id: string, attempt: ConnectAttempt): void {
  const prev = ctx.store.state.connections[id];
  if (prev?.status !== 'connecting') return;
  const next: ConnectionState = Object.freeze({ ...prev, attempt: Object.freeze({ ...attempt }) });
  ctx.store.update((s) => ({ ...s, connections: withEntry(s.connections, id, next) }));
}

/** `mcp-tools-changed` with the server's current counts. */
export function toolsChanged(ctx: HubContext, id: string, reason: ToolsChangedReason): void {
  const c = ctx.store.state.catalogues[id];
  ctx.emit(
    new McpToolsChangedEvent({
      serverId: id,
      toolCount: c?.tools.length ?? 0,
      resourceCount: c?.resources.length ?? 0,
      promptCount: c?.prompts.length ?? 0,
      reason,
    }),
  );
}
