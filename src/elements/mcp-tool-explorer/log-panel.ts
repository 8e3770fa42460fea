// The explorer's log tab: what a server sent as `notifications/message` (the hub keeps the last
// 200 per server, text only) and, as a distinct kind, the protocol failures the hub saw with it
// (its "stderr": JSON-RPC errors, failed connects, dropped tools); filtered by level and kind,
// copied as text, cleared; and the level the server is asked to send from (`logging/setLevel`).
// A chunk of its own, imported when the tab is first shown (tabs.ts).
import { css, html, nothing } from 'lit';
import type { ServerLogEntry } from '../../core/index.js';
import { ExplorerPart, type TabView, type Translate } from './host.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import type { LogStrings } from './strings.js';

/** The protocol's levels, least severe first (RFC 5424 order). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
const rank = (level: string) => Math.max(0, LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]));

const time = (at: number) => new Date(at).toLocaleTimeString();

/** One entry as a line of text (what "Copy" puts on the clipboard). */
export function logLine(e: ServerLogEntry): string {
  const kind = e.kind === 'protocol' ? ' [protocol]' : '';
  return `${new Date(e.at).toISOString()} [${e.level}]${kind}${e.logger ? ` ${e.logger}:` : ''} ${e.text}`;
}

/** Which entries a kind filter keeps: everything, the server's messages, or protocol failures. */
export const LOG_KINDS = ['all', 'server', 'protocol'] as const;
const keeps = (kind: string, e: ServerLogEntry) =>
  kind === 'all' || (kind === 'protocol' ? e.kind === 'protocol' : e.kind !== 'protocol');

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const LOG_STRINGS: LogStrings = {
  logServer: 'Server',
  logShow: 'Lowest level shown',
  logKind: 'Kind',
  logKindAll: 'Everything',
  logKindServer: 'Server messages',
  logKindProtocol: 'Protocol errors',
  logKindBadge: 'protocol',
  logAskServer: 'Ask the server to send from',
  logLevelSet: 'The server was asked to send messages from that level.',
  logCopy: 'Copy log',
  logCopied: 'Copied',
  logCopyFailed: 'Could not copy: the browser did not allow it.',
  logClear: 'Clear log',
  logEmpty: 'No log messages from this server yet.',
  logNoMatch: 'No message at this level or above.',
  logNoServer: 'No servers.',
};

type Tr = Translate<LogStrings & { log: string }>;

class LogTab extends ExplorerPart implements TabView {
  /** The server chosen (when the explorer shows all). */
  #server?: string;
  #level = 'debug';
  /** `all`, `server` (the server's messages) or `protocol` (failures the hub saw). */
  #kind = 'all';
  /** What the tab last did: copied, copy-failed, level-set, or `error:<message>`. */
  #note = '';

  #set(patch: { server?: string; level?: string; kind?: string; note?: string }) {
    if (patch.server !== undefined) this.#server = patch.server;
    if (patch.level !== undefined) this.#level = patch.level;
    if (patch.kind !== undefined) this.#kind = patch.kind;
    if (patch.note !== undefined) this.#note = patch.note;
    this.changed();
  }

  /** The log's server: the explorer's `server-id`, else the one chosen here, else the first. */
  #serverId(): string | undefined {
    const { hub, serverId } = this.context.host;
    const ids = hub.servers.list().map((s) => s.id);
    if (serverId) return serverId;
    return this.#server && ids.includes(this.#server) ? this.#server : ids[0];
  }

  /** The entries shown: the server's log at or above the chosen level and of the chosen kind, oldest first. */
  #shown(): readonly ServerLogEntry[] {
    const id = this.#serverId();
    const all = (id && this.context.host.hub.store.state.logs[id]) || [];
    const min = rank(this.#level);
    const kind = this.#kind;
    return min === 0 && kind === 'all' ? all : all.filter((e) => rank(e.level) >= min && keeps(kind, e));
  }

  async #copy() {
    try {
      await navigator.clipboard.writeText(this.#shown().map(logLine).join('\n'));
      this.#set({ note: 'copied' });
    } catch {
      this.#set({ note: 'copy-failed' });
    }
  }

  async #askServer(serverId: string, level: string) {
    this.#set({ note: '' });
    try {
      await this.context.host.hub.setLogLevel(serverId, level);
      this.#set({ note: 'level-set' });
    } catch (e) {
      this.#set({ note: `error:${(e as Error).message}` });
    }
  }

  #renderNote(tr: Tr) {
    const n = this.#note;
    if (!n) return nothing;
    if (n.startsWith('error:')) return html`<p class="error-text" role="alert">${n.slice(6)}</p>`;
    const text = n === 'copied' ? tr('logCopied') : n === 'copy-failed' ? tr('logCopyFailed') : tr('logLevelSet');
    return html`<p class="muted" role="status">${text}</p>`;
  }

  render(tr: Tr) {
    const { hub, serverId } = this.context.host;
    const servers = hub.servers.list();
    const id = this.#serverId();
    if (!id) return html`<p class="muted">${tr('logNoServer')}</p>`;
    const name = servers.find((s) => s.id === id)?.name ?? id;
    const entries = this.#shown();
    const total = hub.store.state.logs[id]?.length ?? 0;
    const option = (level: string, selected: boolean) =>
      html`<option value=${level} ?selected=${selected}>${level}</option>`;
    return html`<div class="log" part="log">
      <div class="toolbar">
        ${
          serverId
            ? nothing
            : html`<label for="log-server">${tr('logServer')}</label>
                <select
                  id="log-server"
                  @change=${(e: Event) => this.#set({ server: (e.target as HTMLSelectElement).value, note: '' })}
                >
                  ${servers.map((s) => html`<option value=${s.id} ?selected=${s.id === id}>${s.name}</option>`)}
                </select>`
        }
        <label for="log-level">${tr('logShow')}</label>
        <select id="log-level" @change=${(e: Event) => this.#set({ level: (e.target as HTMLSelectElement).value })}>
          ${LOG_LEVELS.map((l) => option(l, l === this.#level))}
        </select>
        <label for="log-kind">${tr('logKind')}</label>
        <select id="log-kind" @change=${(e: Event) => this.#set({ kind: (e.target as HTMLSelectElement).value })}>
          ${LOG_KINDS.map(
            (k) =>
              html`<option value=${k} ?selected=${k === this.#kind}>
                ${tr(k === 'all' ? 'logKindAll' : k === 'server' ? 'logKindServer' : 'logKindProtocol')}
              </option>`,
          )}
        </select>
        <label for="log-server-level">${tr('logAskServer')}</label>
        <select
          id="log-server-level"
          @change=${(e: Event) => void this.#askServer(id, (e.target as HTMLSelectElement).value)}
        >
          <option value="" selected disabled>—</option>
          ${LOG_LEVELS.map((l) => option(l, false))}
        </select>
        <button data-action="copy-log" ?disabled=${entries.length === 0} @click=${() => void this.#copy()}>
          ${tr('logCopy')}
        </button>
        <button
          data-action="clear-log"
          ?disabled=${total === 0}
          @click=${() => {
            hub.clearLog(id);
            this.#set({ note: '' });
          }}
        >
          ${tr('logClear')}
        </button>
      </div>
      ${this.#renderNote(tr)}
      ${
        entries.length
          ? html`<div class="log-list" role="log" tabindex="0" aria-label=${`${tr('log')}: ${name}`}>
              <ol>
                ${entries.map(
                  (e) =>
                    html`<li data-level=${e.level} data-kind=${e.kind ?? 'server'}>
                      <time datetime=${new Date(e.at).toISOString()}>${time(e.at)}</time>
                      <span class="level">${e.level}</span>
                      ${e.kind === 'protocol' ? html`<span class="kind">${tr('logKindBadge')}</span>` : nothing}
                      ${e.logger ? html`<span class="logger">${e.logger}</span>` : nothing}
                      <span class="text">${e.text}</span>
                    </li>`,
                )}
              </ol>
            </div>`
          : html`<p class="muted">${total ? tr('logNoMatch') : tr('logEmpty')}</p>`
      }
    </div>`;
  }
}

McpToolExplorerElement._definePanel('log', {
  create: (context) => new LogTab(context),
  strings: LOG_STRINGS,
  styles: [
    css`
      .log {
        display: grid;
        gap: 0.5rem;
      }
      .log-list ol {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .log-list {
        padding: 0.3rem 0.5rem;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        max-height: var(--_list-height);
        overflow: auto;
        font-family: var(--_mono);
        font-size: 0.85em;
      }
      .log-list li {
        display: flex;
        gap: 0.5rem;
        align-items: baseline;
        padding: 0.1rem 0;
        border-bottom: 1px solid var(--_subtle);
      }
      .log-list .level {
        min-width: 5.5em;
        font-weight: 600;
      }
      .log-list [data-level='warning'] .level {
        color: var(--_warning);
      }
      .log-list [data-level='error'] .level,
      .log-list [data-level='critical'] .level,
      .log-list [data-level='alert'] .level,
      .log-list [data-level='emergency'] .level {
        color: var(--_danger);
      }
      .log-list .logger,
      .log-list time {
        color: var(--_muted);
      }
      /* a protocol failure the hub saw (the server's "stderr"), apart from what the server sent */
      .log-list [data-kind='protocol'] {
        font-family: var(--_mono);
        font-size: 0.85em;
      }
      .log-list .kind {
        border: 1px solid var(--_danger);
        color: var(--_danger);
        border-radius: 999px;
        padding: 0 0.4rem;
        font-size: 0.8em;
      }
      .log-list .text {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        min-width: 0;
      }
    `,
  ],
});
