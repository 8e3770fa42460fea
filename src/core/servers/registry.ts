// The server registry (`hub.servers`): validated add / update / remove with per-field
// last-write-wins, secrets sealed into the vault, and mcp.json import / export.
import { McpServerAddedEvent, McpServerRemovedEvent, McpServerUpdatedEvent } from '../../events/index.js';
import { KEYS, randomId, type HubContext } from '../context.js';
import { McpConfigError, McpNotFoundError } from '../errors.js';
import { fromMcpJson, toMcpJson, type McpJsonEntryError } from './mcp-json.js';
import {
  ServerConfigInputSchema,
  ServerConfigPatchSchema,
  ServerConfigSchema,
  parseOrThrow,
  type ServerConfig,
  type ServerConfigInput,
  type ServerConfigPatch,
} from '../schemas.js';
import { setCatalogue, setServer } from '../state.js';
import { checkRefs, collectRefs, dropSecrets, sealSecrets } from './secrets.js';
import { checkMove } from './relays.js';

/** The server registry: `hub.servers`. */
export interface ServerRegistry {
  list(): ServerConfig[];
  get(id: string): ServerConfig | undefined;
  add(input: ServerConfigInput): Promise<ServerConfig>;
  /**
   * Change a server. A move (a new URL on another origin, or another relay: one added, removed
   * or replaced) is refused (McpConfigError naming each stored secret) while the record would
   * keep a stored secret the patch does not enter again, unless `confirmSecrets` says the user
   * confirmed sending them there. A move drops the tools trusted with "Always allow", the OAuth
   * tokens, and reconnects.
   */
  update(id: string, patch: ServerConfigPatch, options?: UpdateOptions): Promise<ServerConfig>;
  remove(id: string): Promise<void>;
}

/** Options of `servers.update()`. */
export interface UpdateOptions {
  /**
   * The user confirmed that the server's stored secrets (bearer token, API key, password, secret
   * headers, client secrets) may go to the new URL's origin or through the new relay. Without it
   * a move must enter each of them again.
   */
  confirmSecrets?: boolean;
}

/** What the registry asks of the connections when a config changes. */
export interface ConnectionControl {
  /** Close the session and stop a connect in flight (removal). */
  close(id: string): Promise<void>;
  disconnect(id: string): Promise<void>;
  /** Reconnect if connected (the address or credentials changed). */
  reconnect(id: string): void;
}

/** Fields whose change means the open session no longer matches the config. */
const RECONNECT_FIELDS = ['url', 'transport', 'revision', 'auth', 'headers', 'timeout', 'relay'];

export class Servers implements ServerRegistry {
  constructor(
    private readonly ctx: HubContext,
    private readonly connections: ConnectionControl,
    /** Drop what was trusted of a server (it was removed, or moved to another origin). */
    private readonly forgetTrust: (serverId: string) => Promise<void> = async () => {},
  ) {}

  list(): ServerConfig[] {
    return Object.values(this.ctx.store.state.servers).sort(
      (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
    );
  }

  get(id: string): ServerConfig | undefined {
    return this.ctx.store.state.servers[id];
  }

  async add(input: ServerConfigInput): Promise<ServerConfig> {
    const { ctx } = this;
    await ctx.ready;
    const parsed = parseOrThrow(ServerConfigInputSchema, input);
    const id = parsed.id ?? randomId('srv');
    if (ctx.store.state.servers[id])
      throw new McpConfigError([{ path: 'id', message: `a server with id "${id}" already exists` }]);
    checkRefs(parsed, []);
    const sealed = await sealSecrets(ctx.vault, parsed.auth, parsed.headers);
    const now = Date.now();
    const record: ServerConfig = {
      ...parsed,
      id,
      auth: sealed.auth!,
      headers: sealed.headers!,
      createdAt: now,
      updatedAt: now,
    };
    const checked = ServerConfigSchema.parse(record);
    try {
      await ctx.storage.set(KEYS.server + id, checked);
    } catch (e) {
      await dropSecrets(ctx.vault, sealed.created);
      throw e;
    }
    setServer(ctx, id, checked);
    ctx.broadcast('server', id);
    ctx.emit(new McpServerAddedEvent({ server: checked, source: 'local' }));
    return checked;
  }

  async update(id: string, patch: ServerConfigPatch, options: UpdateOptions = {}): Promise<ServerConfig> {
    const { ctx } = this;
    await ctx.ready;
    const current = ctx.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    const parsed = parseOrThrow(ServerConfigPatchSchema, patch);
    checkRefs(parsed, collectRefs(current));
    // a move: the requests (and the secrets in them) would go to another origin, or through
    // another relay (which sees them all), than the ones the user entered the secrets for
    const moved = checkMove(current, parsed, options.confirmSecrets);
    const sealed = await sealSecrets(ctx.vault, parsed.auth, parsed.headers);
    const fields: Partial<ServerConfig> = { ...parsed } as Partial<ServerConfig>;
    if (sealed.auth) fields.auth = sealed.auth;
    if (sealed.headers) fields.headers = sealed.headers;
    let gone = false;
    // Per-field last-write-wins: merge only the patched fields into the freshest stored record,
    // inside one IndexedDB transaction, so another tab's edit of other fields survives.
    const merged = await ctx.storage.update<ServerConfig | undefined>(KEYS.server + id, (old) => {
      if (!old) {
        gone = true;
        return undefined;
      }
      const next = { ...old, ...fields, updatedAt: Math.max(Date.now(), old.updatedAt + 1) };
      if ((next as { relay?: string | null }).relay === null) delete next.relay; // `relay: null` removes it
      return next;
    });
    if (gone || !merged) {
      await ctx.storage.delete(KEYS.server + id);
      await dropSecrets(ctx.vault, sealed.created);
      throw new McpNotFoundError('server', id);
    }
    const next = ServerConfigSchema.parse(merged);
    // secrets the record no longer refers to
    const keep = new Set(collectRefs(next).map((r) => r.secretRef));
    await dropSecrets(
      ctx.vault,
      collectRefs(current).filter((r) => !keep.has(r.secretRef)),
    );
    setServer(ctx, id, next);
    ctx.broadcast('server', id);
    // what the user trusted was this server at its old origin
    if (moved) await this.forgetTrust(id);
    ctx.emit(new McpServerUpdatedEvent({ server: next, previous: current, source: 'local' }));
    if (!next.enabled) await this.connections.disconnect(id);
    else if (RECONNECT_FIELDS.some((k) => k in parsed)) this.connections.reconnect(id);
    return next;
  }

  async remove(id: string): Promise<void> {
    const { ctx } = this;
    await ctx.ready;
    const current = ctx.store.state.servers[id];
    if (!current) throw new McpNotFoundError('server', id);
    await this.connections.close(id);
    await ctx.storage.delete(KEYS.server + id);
    await ctx.storage.delete(KEYS.catalogue + id);
    await dropSecrets(ctx.vault, collectRefs(current));
    setServer(ctx, id, undefined);
    setCatalogue(ctx, id, undefined);
    ctx.broadcast('server', id);
    await this.forgetTrust(id);
    ctx.emit(new McpServerRemovedEvent({ serverId: id, name: current.name, source: 'local' }));
  }

  /** Every server as `mcp.json` text (`{ "mcpServers": … }`); secrets are written as `<redacted>`. */
  exportConfig(): string {
    return toMcpJson(this.list());
  }

  /** Add the servers of an `mcp.json` text; bad entries are reported with field issues, not imported. */
  async importConfig(
    text: string,
    allow: Parameters<typeof fromMcpJson>[1] = {},
  ): Promise<{ added: ServerConfig[]; errors: McpJsonEntryError[] }> {
    await this.ctx.ready;
    const { entries, errors } = fromMcpJson(text, allow);
    const added: ServerConfig[] = [];
    const failed: McpJsonEntryError[] = [...errors];
    for (const e of entries) {
      try {
        added.push(await this.add(e.input));
      } catch (err) {
        failed.push({
          name: e.name,
          issues: err instanceof McpConfigError ? err.issues : [{ path: '', message: (err as Error).message }],
        });
      }
    }
    return { added, errors: failed };
  }
}
