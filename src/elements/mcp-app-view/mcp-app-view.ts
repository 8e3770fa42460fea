import { html, nothing, type PropertyValues } from 'lit';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import { replaceableImport } from '../../internal/import-once.js';
import { StoreController } from '../../controllers/store-controller.js';
import { toolUi, type McpHub, type Tool, type ToolCallRecord, type ToolCallStatus } from '../../core/index.js';
import { McpAppInitializedEvent } from '../../events/app-initialized.js';
import { McpAppMessageEvent } from '../../events/app-message.js';
import type { AppViewHost } from '../../apps/view-host.js';
import type { ViewDownload } from '../../apps/download.js';
import { styles } from './mcp-app-view.styles.js';
import { STRINGS, type McpAppViewStrings } from './strings.js';
import { approvalBars, ViewQuestions } from './view-bars.js';
import { FullscreenController } from './fullscreen.js';

export { McpAppInitializedEvent, McpAppMessageEvent };
export type { McpAppViewStrings };

/** The view code (src/apps with the ext-apps SDK): a chunk fetched the first time a view is shown. */
export const appsImport = replaceableImport('the MCP Apps view host', () => import('../../apps/index.js'));

/**
 * Ready a view while its call waits for the user (`<mcp-tool-call>` calls it): the view code, the
 * resource and, in a sandbox mode, the proxy frame load meanwhile; nothing of the server's runs.
 */
export async function prepareAppView(hub: McpHub, serverId: string, uri: string): Promise<void> {
  await (await appsImport.load())?.prepareView(hub, serverId, uri);
}

interface ViewTarget {
  serverId: string;
  uri: string;
  tool?: Tool;
  call?: ToolCallRecord;
}

const ENDED: ReadonlySet<ToolCallStatus> = new Set(['success', 'error', 'denied', 'cancelled', 'interrupted']);

/** Largest height (px) a view may take inline; it scrolls inside beyond. */
const MAX_INLINE_HEIGHT = 800;

/**
 * An MCP App view: the interactive UI a server ships for a tool (`_meta.ui.resourceUri`), shown
 * safely. With a sandbox URL (hub option `sandboxUrl` or the `sandbox-url` attribute) the view runs
 * in the sandbox proxy page served on a second origin; without one, in an opaque-origin `srcdoc`
 * frame. It talks to the hub only through the official ext-apps `AppBridge`: its tool calls go
 * through approval (per view, server and tool; read-only tools run), only to its own server and
 * only to tools whose visibility includes `"app"`; links open after the user confirms; messages
 * become `mcp-app-message` events; its model context is kept in `hub.modelContext()`.
 * `<mcp-tool-call>` shows one under a call whose tool has a view.
 *
 * @summary Shows an MCP App view (a server's own UI for a tool call) in a sandbox.
 * @tag mcp-app-view
 *
 * @attr call-id - The call whose view to show (its tool's `ui://` resource; input and result are sent).
 * @attr server-id - With `resource-uri`: show a view without a call.
 * @attr resource-uri - The `ui://` resource to show (with `server-id`).
 * @attr sandbox-url - The sandbox proxy page on a second origin (overrides the hub's `sandboxUrl`).
 * @attr display-mode - Reflects the mode the view is shown in: `inline`, `fullscreen` or `pip`.
 * @attr theme - `light` or `dark` to override `prefers-color-scheme` (sent to the view).
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpAppViewStrings>} strings - Replacement user-visible strings.
 * @prop {string} viewId - This view's id (in events and `hub.modelContext()`).
 *
 * @fires {McpAppInitializedEvent} mcp-app-initialized - The view finished its handshake.
 * @fires {McpAppMessageEvent} mcp-app-message - The view asks to add a message to the conversation (cancelable: refuse it).
 *
 * @csspart frame - The box around the view's frame.
 * @csspart toolbar - Display mode buttons (only modes the view declared; all the host offers when it declared none).
 * @csspart approval - Calls of one tool the view wants to make (its oldest, and how many wait), with Allow once / Always for this view / Deny (once and Deny answer the oldest).
 * @csspart link - The confirmation before a link the view asked for opens.
 * @csspart download - The confirmation before a file the view offers is saved (name and size).
 * @csspart notice - The call's state when it did not finish (interrupted, cancelled), and the fallback note.
 * @csspart error - Why the view could not be shown.
 *
 * @cssprop --mcp-app-view-border-color - Border of views that prefer one.
 * @cssprop --mcp-app-view-max-height - Largest inline height (default 800px).
 */
export class McpAppViewElement extends McpElement<McpAppViewStrings> {
  static override properties = {
    ...McpElement.properties,
    callId: { attribute: 'call-id' },
    serverId: { attribute: 'server-id' },
    resourceUri: { attribute: 'resource-uri' },
    sandboxUrl: { attribute: 'sandbox-url' },
    displayMode: { attribute: 'display-mode', reflect: true },
    call: { attribute: false },
    _phase: { state: true },
    _error: { state: true },
    _refusals: { state: true },
  };
  static override styles = [baseStyles, styles];
  declare callId?: string;
  declare serverId?: string;
  declare resourceUri?: string;
  declare sandboxUrl?: string;
  declare displayMode: 'inline' | 'fullscreen' | 'pip';
  /** A call record to show when it is not in the hub (e.g. a host's own history). */
  declare call?: ToolCallRecord;
  declare _phase: 'idle' | 'loading' | 'shown' | 'failed';
  declare _error?: string;
  declare _refusals: string[];
  /** @internal */
  protected override defaultStrings = STRINGS;
  /** This view's id (events, `hub.modelContext()`). */
  readonly viewId = `view_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  #host?: AppViewHost;
  #started?: string;
  #sent?: string;
  #appCalls: string[] = [];
  #resize?: ResizeObserver;
  #scheme?: MediaQueryList;
  #frameBox?: HTMLElement;
  readonly #questions = new ViewQuestions(this, (k) => this.t(k));

  // the call (its status moves the lifecycle) and the view's own calls awaiting approval
  readonly #view = new StoreController(this, (_s, hub) => {
    const call = this.callId ? hub.calls.get(this.callId) : this.call;
    const asking = this.#appCalls.map((id) => hub.calls.get(id)).filter((c) => c?.status === 'awaiting-approval');
    return { call, asking: asking as ToolCallRecord[], catalogue: call ? hub.catalogue(call.serverId) : undefined };
  });

  constructor() {
    super();
    this.displayMode = 'inline';
    this._phase = 'idle';
    this._refusals = [];
    // full screen: the rest of the page inert, Escape back inline, the focus back where it was
    new FullscreenController(this);
  }

  /** What the view shows: server, resource and (for a call) the tool and record. */
  #target(): ViewTarget | undefined {
    const call = this.#view.value.call;
    // never the server's code before the user allowed the call: a call waiting for approval, or
    // a model's call not yet running, shows nothing yet (a person's own call may start at once)
    if (call && (call.status === 'awaiting-approval' || (call.status === 'pending' && call.source !== 'user')))
      return undefined;
    if (call) {
      const tool = this.hub.catalogue(call.serverId)?.tools.find((t) => t.name === call.tool);
      const uri = toolUi(tool).resourceUri;
      return uri ? { serverId: call.serverId, uri, tool, call } : undefined;
    }
    if (this.serverId && this.resourceUri) return { serverId: this.serverId, uri: this.resourceUri };
    return undefined;
  }

  override connectedCallback() {
    super.connectedCallback();
    this.#scheme = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
    this.#scheme?.addEventListener('change', this.#contextChanged);
    this.#resize = new ResizeObserver(this.#contextChanged);
    this.#resize.observe(this);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#scheme?.removeEventListener('change', this.#contextChanged);
    this.#resize?.disconnect();
    // the frame goes with this element; a host that wants the view told first calls close()
    this.#host?.close();
    this.#host = undefined;
    this.#started = undefined;
    this.#sent = undefined;
    this._phase = 'idle';
  }

  #contextChanged = () => this.#host?.contextChanged();

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('callId') || changed.has('hub') || changed.has('call')) this.#view.refresh();
  }

  override updated(changed: PropertyValues<this>) {
    if (changed.has('theme')) this.#contextChanged();
    const target = this.isConnected ? this.#target() : undefined;
    const key = target ? `${target.serverId}\u0000${target.uri}\u0000${target.call?.id ?? ''}` : undefined;
    if (key !== this.#started) {
      this.#host?.close();
      this.#host = undefined;
      this.#started = key;
      this.#sent = undefined;
      if (target) void this.#start(key!, target);
      else this._phase = 'idle';
    }
    void this.#follow();
  }

  async #start(key: string, t: ViewTarget) {
    this._phase = 'loading';
    this._error = undefined;
    const apps = await appsImport.load();
    if (this.#started !== key) return;
    if (!apps) {
      this._phase = 'failed';
      this._error = this.t('chunkFailed');
      return;
    }
    try {
      const resource = await apps.loadUiResource(this.hub, t.serverId, t.uri);
      if (this.#started !== key) return;
      // the frame's box exists since the first render (this runs from updated()): no render is
      // awaited before the frame starts loading
      const sandboxUrl = this.sandboxUrl || this.hub.sandboxUrl;
      const box = (this.#frameBox = this.renderRoot.querySelector('.frame') as HTMLElement);
      // the context is read while the host is made (ui/initialize's), before `host` is set
      let host: AppViewHost | undefined = undefined;
      host = new apps.AppViewHost({
        hub: this.hub,
        viewId: this.viewId,
        serverId: t.serverId,
        resource,
        tool: t.tool,
        callId: t.call?.id,
        assistantId: t.call?.assistantId,
        sandboxUrl,
        container: box,
        context: () =>
          apps.hostContext(this, {
            theme: this.#theme(),
            displayMode: host?.displayMode ?? 'inline',
            available: host?.availableModes ?? ['inline'],
            maxHeight: MAX_INLINE_HEIGHT,
          }),
        hooks: this.#hooks(),
      });
      this.#host = host;
      this.toggleAttribute('data-border', resource.meta.prefersBorder === true);
      this.toggleAttribute('data-opaque', !sandboxUrl);
      // shown (the box unhidden) by the render this schedules, a microtask away, long before the
      // frame's document loads and measures itself
      this._phase = 'shown';
      await host.start();
      await host.initialized;
      if (this.#host !== host) return;
      this.emit(
        new McpAppInitializedEvent({
          viewId: this.viewId,
          serverId: t.serverId,
          resourceUri: t.uri,
          ...(t.call ? { callId: t.call.id } : {}),
          mode: sandboxUrl ? 'sandbox' : 'opaque-fallback',
        }),
      );
      this.requestUpdate();
      await this.#follow();
    } catch (e) {
      if (this.#started !== key) return;
      this.#host?.close();
      this.#host = undefined;
      this._phase = 'failed';
      this._error = (e as Error)?.message ?? String(e);
    }
  }

  #theme(): 'light' | 'dark' {
    if (this.theme === 'light' || this.theme === 'dark') return this.theme;
    return this.#scheme?.matches ? 'dark' : 'light';
  }

  /** Send the call's input, then its result or how it ended, once each (in that order). */
  async #follow() {
    const host = this.#host;
    const call = this.#view.value.call;
    if (!host || !call || host.closed) return;
    try {
      await host.initialized;
    } catch {
      return;
    }
    if (this.#host !== host) return;
    if (!this.#sent) {
      this.#sent = 'input';
      await host.sendInput({ ...call.arguments });
    }
    const now = this.#view.value.call ?? call;
    if (this.#sent !== 'input' || !ENDED.has(now.status)) return;
    this.#sent = 'end';
    if (now.result) await host.sendResult(now.result);
    else await host.sendCancelled(now.error?.message ?? now.status);
  }

  #hooks() {
    return {
      size: (_width: number | undefined, height: number | undefined) => {
        if (height !== undefined && this.#frameBox)
          this.#frameBox.style.setProperty('--_view-height', `${Math.max(0, Math.ceil(height))}px`);
      },
      displayMode: (mode: 'inline' | 'fullscreen' | 'pip') => {
        this.displayMode = mode;
      },
      confirmLink: (url: string) => this.#questions.confirmLink(url),
      confirmDownload: (file: ViewDownload) => this.#questions.confirmDownload(file),
      message: (params: { role: string; content: unknown[] }) =>
        this.emit(
          new McpAppMessageEvent({
            viewId: this.viewId,
            serverId: this.#target()?.serverId ?? this.serverId ?? '',
            ...(this.#view.value.call ? { callId: this.#view.value.call.id } : {}),
            role: String(params.role),
            content: Array.isArray(params.content) ? params.content : [],
          }),
        ),
      refused: (reason: string, fatal?: boolean) => {
        this._refusals = [...this._refusals, reason].slice(-3);
        if (fatal) {
          this._phase = 'failed';
          this._error = reason;
        }
      },
      appCall: (id: string) => {
        this.#appCalls = [...this.#appCalls.slice(-20), id];
        this.#view.refresh();
      },
    };
  }

  /** Show the view in another mode it declared (`inline`, `fullscreen`, `pip`). */
  requestDisplayMode(mode: 'inline' | 'fullscreen' | 'pip'): void {
    this.#host?.setDisplayMode(mode);
  }

  /** Arguments while the model still streams them (`ui/notifications/tool-input-partial`). */
  sendPartialInput(args: Record<string, unknown>): Promise<void> {
    return this.#host && !this.#sent ? this.#host.sendPartialInput(args) : Promise.resolve();
  }

  /** Tell the view it is going (`ui/resource-teardown`, up to a second), then remove this element. */
  async close(): Promise<void> {
    await this.#host?.teardown();
    this.remove();
  }

  #notice(call: ToolCallRecord | undefined) {
    if (!call) return nothing;
    if (call.status === 'interrupted')
      return html`<p class="notice" part="notice" role="status">${this.t('interrupted')}</p>`;
    if ((call.status === 'cancelled' || call.status === 'error') && !call.result)
      return html`<p class="notice" part="notice" role="status">
        ${this.t('cancelled').replace('{reason}', call.error?.message ?? call.status)}
      </p>`;
    return nothing;
  }

  override render() {
    const { call, asking } = this.#view.value;
    const modes = this.#host?.availableModes ?? [];
    const serverName = this.hub.store.state.servers[this.#target()?.serverId ?? '']?.name ?? '';
    return html`
      ${this.#notice(call)} ${approvalBars(this.hub, asking, (k) => this.t(k))} ${this.#questions.render()}
      ${
        this._phase === 'failed'
          ? html`<p class="error" part="error" role="alert">${this.t('failed')} ${this._error}</p>`
          : nothing
      }
      ${this._phase === 'loading' ? html`<p class="muted" role="status">${this.t('loading')}</p>` : nothing}
      <div
        class="frame"
        part="frame"
        role="region"
        aria-label=${this.t('view').replace('{server}', serverName)}
        ?hidden=${this._phase !== 'shown'}
      ></div>
      ${
        this._phase === 'shown' && modes.length > 1
          ? html`<div class="toolbar" part="toolbar">
              ${
                this.displayMode !== 'inline'
                  ? html`<button data-action="inline" @click=${() => this.requestDisplayMode('inline')}>
                      ${this.displayMode === 'fullscreen' ? this.t('exitFullscreen') : this.t('inline')}
                    </button>`
                  : nothing
              }
              ${
                this.displayMode === 'inline' && modes.includes('fullscreen')
                  ? html`<button data-action="fullscreen" @click=${() => this.requestDisplayMode('fullscreen')}>
                      ${this.t('fullscreen')}
                    </button>`
                  : nothing
              }
              ${
                this.displayMode === 'inline' && modes.includes('pip')
                  ? html`<button data-action="pip" @click=${() => this.requestDisplayMode('pip')}>
                      ${this.t('pip')}
                    </button>`
                  : nothing
              }
            </div>`
          : nothing
      }
      ${
        this._refusals.length
          ? html`<ul class="refusals muted" role="status">
              ${this._refusals.map((r) => html`<li>${r}</li>`)}
            </ul>`
          : nothing
      }
    `;
  }
}
