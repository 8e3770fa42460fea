import { html, nothing, type PropertyValues } from 'lit';
import { errorText, renderErrorText } from '../../internal/error-text.js';
import { repeat } from 'lit/directives/repeat.js';
import { StoreController } from '../../controllers/store-controller.js';
import type { HubState, ToolCallRecord } from '../../core/index.js';
import { McpElement } from '../../internal/mcp-element.js';
import { RESULT_STRINGS, renderResult, resultStrings } from '../../internal/result-view.js';
import { styles } from './mcp-task-monitor.styles.js';

const STRINGS = {
  errorDetails: 'Details',
  heading: 'Tasks',
  running: 'Running',
  finished: 'Finished',
  empty: 'No tasks yet. Tools that run as tasks on their server appear here.',
  loading: 'Loading tasks…',
  on: 'on',
  working: 'Working',
  input_required: 'Needs input',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  cancel: 'Cancel',
  cancelTask: 'Cancel task {tool}',
  showResult: 'Show result',
  hideResult: 'Hide result',
  progress: 'Progress',
  cancelFailed: 'Could not cancel: {message}',
  ...RESULT_STRINGS,
  taskEnded: 'Task {tool}: {status}',
};
export type McpTaskMonitorStrings = typeof STRINGS;

/** The calls that run (or ran) as tasks, newest first, optionally of one server. */
function taskCalls(s: HubState, serverId?: string): ToolCallRecord[] {
  const pick = (c: ToolCallRecord) => !!c.task && (!serverId || c.serverId === serverId);
  return [...Object.values(s.activeCalls).filter(pick), ...Object.values(s.calls).filter(pick)].sort(
    (a, b) => b.createdAt - a.createdAt,
  );
}

const isLive = (c: ToolCallRecord) => c.status === 'running' || c.status === 'pending';

/**
 * Tool calls that run as tasks on their servers (MCP tasks: the 2025-11-25 form and the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension), across servers: running ones with their
 * status, status message and progress, and a Cancel button; finished ones with their outcome and
 * a Show result button that renders the result with the same view as `<mcp-tool-call>`. Tasks
 * outlive a reload: the hub follows them again and they stay here. Server text is shown as text.
 *
 * @summary Running and finished MCP tasks across servers: status, progress, cancel, result.
 * @tag mcp-task-monitor
 *
 * @attr server-id - Show only this server's tasks.
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpTaskMonitorStrings>} strings - Replacement user-visible strings (`{tool}`, `{status}`, `{message}` are filled in).
 *
 * @fires {McpTaskChangedEvent} mcp-task-changed - From the hub when a task is created, changes, is resumed after a reload or ends.
 * @fires {McpToolCallCancelledEvent} mcp-tool-call-cancelled - From the hub, after Cancel.
 *
 * @csspart monitor - The whole monitor.
 * @csspart running - The list of running tasks.
 * @csspart finished - The list of finished tasks.
 * @csspart task - One task (an item of either list).
 * @csspart status - A task's status badge.
 * @csspart message - A task's status message.
 * @csspart progress - A running task's progress bar.
 * @csspart actions - A task's buttons.
 * @csspart result - A finished task's result (shown on demand).
 * @csspart error - A finished task's error.
 *
 * @cssprop --mcp-task-monitor-background - Background of the monitor.
 * @cssprop --mcp-task-monitor-gap - Space between tasks.
 *
 * @cssstate empty - No task to show.
 * @cssstate loading - The hub is still loading its records.
 * @cssstate running - At least one task runs.
 * @cssstate has-error - At least one shown task failed.
 */
export class McpTaskMonitorElement extends McpElement<McpTaskMonitorStrings> {
  static override properties = {
    ...McpElement.properties,
    serverId: { attribute: 'server-id' },
    _open: { state: true },
    _problem: { state: true },
    _announce: { state: true },
  };
  static override styles = styles;
  /** Show only this server's tasks. */
  declare serverId?: string;
  declare _open: ReadonlySet<string>;
  declare _problem: string;
  declare _announce: string;
  /** @internal */
  protected override defaultStrings = STRINGS;
  readonly #internals = this.attachInternals();
  // one subscription: `ready` beside the shown calls by id (a shallow compare sees any change)
  readonly #view = new StoreController(this, (s) => {
    const view: Record<string, ToolCallRecord | boolean> = { ready: s.ready };
    for (const c of taskCalls(s, this.serverId)) view[c.id] = c;
    return view;
  });
  #live = new Set<string>();

  constructor() {
    super();
    this._open = new Set();
    this._problem = '';
    this._announce = '';
  }

  /** The calls shown, newest first (running and finished). */
  get tasks(): readonly ToolCallRecord[] {
    return Object.values(this.#view.value).filter((v): v is ToolCallRecord => typeof v === 'object');
  }

  #fill(key: keyof McpTaskMonitorStrings, values: Record<string, string>): string {
    return this.t(key).replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('hub') || changed.has('serverId')) this.#view.refresh();
    // say when a task this element saw running has ended (its row moves between lists)
    const live = new Set(this.tasks.filter(isLive).map((c) => c.id));
    const ended = this.tasks.filter((c) => this.#live.has(c.id) && !live.has(c.id));
    if (ended.length)
      this._announce = ended
        .map((c) => this.#fill('taskEnded', { tool: c.toolTitle ?? c.tool, status: this.#statusText(c) }))
        .join(' ');
    this.#live = live;
  }

  override updated() {
    const states = this.#internals.states as CustomStateSet | undefined;
    if (!states) return;
    const ready = this.#view.value.ready === true;
    const calls = this.tasks;
    const set = (name: string, on: boolean) => (on ? states.add(name) : states.delete(name));
    set('loading', !ready);
    set('empty', ready && calls.length === 0);
    set('running', calls.some(isLive));
    set(
      'has-error',
      calls.some((c) => c.status === 'error'),
    );
  }

  #statusText(c: ToolCallRecord): string {
    if (c.status === 'error') return this.t('failed');
    if (c.status === 'cancelled' || c.status === 'interrupted' || c.status === 'denied') return this.t('cancelled');
    if (c.status === 'success') return this.t('completed');
    const s = c.task?.status ?? 'working';
    return this.t(s in STRINGS ? (s as keyof McpTaskMonitorStrings) : 'working');
  }

  #statusKey(c: ToolCallRecord): string {
    if (c.status === 'success') return 'completed';
    if (c.status === 'error') return 'failed';
    if (!isLive(c)) return 'cancelled';
    return c.task?.status ?? 'working';
  }

  #cancel(c: ToolCallRecord) {
    this._problem = '';
    try {
      this.hub.calls.cancel(c.id);
    } catch (e) {
      this._problem = this.#fill('cancelFailed', { message: (e as Error).message });
    }
  }

  #toggle(id: string) {
    const next = new Set(this._open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    this._open = next;
  }

  #item(c: ToolCallRecord) {
    const tool = c.toolTitle ?? c.tool;
    const live = isLive(c);
    const open = this._open.has(c.id);
    const regionId = `result-${c.id}`;
    const message = c.task?.statusMessage;
    return html`<li part="task" data-call-id=${c.id} aria-label=${`${tool} ${this.t('on')} ${c.serverName}`}>
      <div class="line">
        <span class="tool">${tool}</span>
        <span class="server">${this.t('on')} ${c.serverName}</span>
        <span class="status" part="status" data-status=${this.#statusKey(c)}>${this.#statusText(c)}</span>
      </div>
      ${message ? html`<p class="message" part="message">${message}</p>` : nothing}
      ${
        live && c.progress
          ? html`<progress
              part="progress"
              aria-label=${this.t('progress')}
              value=${c.progress.progress}
              max=${c.progress.total ?? nothing}
            ></progress>`
          : nothing
      }
      ${
        !live && c.status !== 'success' && c.error
          ? renderErrorText(errorText(c.error), this.t('errorDetails'), { part: 'error', className: 'error' })
          : nothing
      }
      <div class="actions" part="actions">
        ${
          live
            ? html`<button
                data-action="cancel"
                aria-label=${this.#fill('cancelTask', { tool })}
                @click=${() => this.#cancel(c)}
              >
                ${this.t('cancel')}
              </button>`
            : nothing
        }
        ${
          !live && c.result
            ? html`<button
                data-action="result"
                aria-expanded=${open ? 'true' : 'false'}
                aria-controls=${regionId}
                @click=${() => this.#toggle(c.id)}
              >
                ${open ? this.t('hideResult') : this.t('showResult')}
              </button>`
            : nothing
        }
      </div>
      ${
        !live && c.result && open
          ? html`<div id=${regionId}>
              ${renderResult(
                c.result,
                resultStrings((k) => this.t(k)),
              )}
            </div>`
          : nothing
      }
    </li>`;
  }

  #list(part: 'running' | 'finished', calls: ToolCallRecord[]) {
    if (!calls.length) return nothing;
    const id = `${part}-heading`;
    return html`<h3 id=${id}>${this.t(part)}</h3>
      <ul part=${part} aria-labelledby=${id}>
        ${repeat(
          calls,
          (c) => c.id,
          (c) => this.#item(c),
        )}
      </ul>`;
  }

  override render() {
    const ready = this.#view.value.ready === true;
    const calls = this.tasks;
    return html`<section part="monitor" aria-labelledby="heading">
      <h2 id="heading">${this.t('heading')}</h2>
      ${
        !ready
          ? html`<p class="muted" role="status">${this.t('loading')}</p>`
          : calls.length === 0
            ? html`<p class="muted empty">${this.t('empty')}</p>`
            : nothing
      }
      ${this.#list('running', calls.filter(isLive))}
      ${this.#list(
        'finished',
        calls.filter((c) => !isLive(c)),
      )}
      ${this._problem ? html`<p class="error" role="alert">${this._problem}</p>` : nothing}
      <span class="visually-hidden" role="status" aria-live="polite">${this._announce}</span>
    </section>`;
  }
}
