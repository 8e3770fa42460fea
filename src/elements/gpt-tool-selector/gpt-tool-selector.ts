import { css, html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { live } from 'lit/directives/live.js';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import { StoreController } from '../../controllers/store-controller.js';
import { modelVisible, type ApprovalMode, type AssistantPatch, type AssistantProfile } from '../../core/index.js';
import { McpToolSelectionChangeRequestEvent } from '../../events/tool-selection-change-request.js';
import { budgetStyles, pinToggle, tokensLabel, toolKey, toolTokens } from './gpt-tool-selector-budget.js';
import { matches, safetyLabel, searchTerms, toolDescription, toolRowStyles } from './gpt-tool-selector-tools.js';

const STRINGS = {
  title: 'Tools for this assistant',
  servers: 'Servers',
  noServers: 'No MCP servers yet. Add one first.',
  tools: 'tools',
  tool: 'tool',
  appOnly: '{n} only for app views',
  appOnlyTitle:
    'Tools of this server that only its own app views may call: {n}. The model is never offered them, so they are not counted or chosen here.',
  chooseTools: 'Choose tools',
  selectAll: 'Select all',
  selectNone: 'Select none',
  approval: 'Approval',
  auto: 'Run without asking',
  'always-ask': 'Always ask',
  'trusted-only': 'Ask unless trusted',
  autoWarning:
    'Run without asking: every tool this assistant may use runs as soon as the model asks for it, without asking you first. That includes destructive tools, which may change or delete your data.',
  trusted: 'Trusted tools',
  noTrusted: 'No trusted tools.',
  untrust: 'Remove',
  cost: 'Context cost of the selected tools',
  characters: 'characters',
  tokens: 'tokens (about)',
  connected: 'Connected',
  connecting: 'Connecting',
  disconnected: 'Not connected',
  'needs-sign-in': 'Sign-in needed',
  error: 'Error',
  notDiscovered: 'Tools not discovered yet; connect the server.',
  tokensShort: 'tokens',
  pin: 'Pin',
  pinHelp:
    'Pin: a pinned tool is always sent to the model, even when the page limits how many tools one request may carry.',
  search: 'Find a tool',
  noMatch: 'No tool matches the search.',
  readOnly: 'read-only',
  destructive: 'destructive',
  down: 'Not offered to the assistant until the server is reconnected.',
};
export type GptToolSelectorStrings = typeof STRINGS;

/**
 * Chooses which MCP servers and tools one assistant may use, how its calls are approved, and
 * which tools it trusts; shows what the selected tool definitions cost in context (in all, per
 * server and per tool) and lets the user pin tools that a budgeted `toolsFor` must always send.
 *
 * @summary Per-assistant tool selection and approval mode.
 * @tag gpt-tool-selector
 *
 * @attr gpt-id - The assistant profile to edit (default `default`).
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<GptToolSelectorStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpToolSelectionChangeRequestEvent} mcp-tool-selection-change-request - Before a change is applied; cancelable.
 * @fires {McpToolSelectionChangedEvent} mcp-tool-selection-changed - From the hub, after a change (reaches `window`).
 *
 * @csspart servers - The server list.
 * @csspart server - One server row.
 * @csspart approval - The approval mode group.
 * @csspart auto-warning - While the mode is "Run without asking": what that means (the auto radio's description).
 * @csspart trusted - The trusted tools list.
 * @csspart cost - The context cost estimate.
 * @csspart pin - A tool's pin toggle (`aria-pressed`).
 * @csspart pin-help - What pinning does (the pin toggles' description).
 * @csspart search - The tool search box.
 * @csspart down - The note on a server that is down: its tools are not offered until it is reconnected.
 *
 * @cssprop --mcp-gpt-tool-selector-gap - Space between sections.
 */
export class GptToolSelectorElement extends McpElement<GptToolSelectorStrings> {
  // the attribute keeps its first name: it is the one hosts write in their markup
  static override properties = {
    ...McpElement.properties,
    assistantId: { attribute: 'gpt-id' },
    _query: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      :host {
        --_section-gap: var(--mcp-gpt-tool-selector-gap, 1rem);
      }
      section {
        display: grid;
        gap: 0.4rem;
        margin-bottom: var(--_section-gap);
      }
      h2,
      h3 {
        margin: 0;
        font-size: 1em;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.3rem;
      }
      .server {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.4rem 0.6rem;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
      .status {
        font-size: 0.85em;
        color: var(--_muted);
      }
      .status[data-status='connected'] {
        color: var(--_success);
      }
      .status[data-status='error'] {
        color: var(--_danger);
      }
      .tools {
        padding-left: 1.5rem;
        margin-top: 0.3rem;
      }
      .name {
        overflow-wrap: anywhere;
      }
      fieldset {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        display: grid;
        gap: 0.2rem;
      }
      .auto-warning {
        margin: 0.2rem 0 0;
        padding: 0.3rem 0.6rem;
        border-left: 3px solid var(--_warning);
        background: var(--_subtle);
        overflow-wrap: anywhere;
      }
    `,
    budgetStyles,
    toolRowStyles,
  ];
  /** The assistant profile to edit (default `default`). */
  declare assistantId: string;
  /**
   * The assistant profile to edit: the old name of `assistantId`, kept for hosts that set it.
   * @deprecated use assistantId
   */
  get gptId(): string {
    return this.assistantId;
  }
  set gptId(value: string) {
    this.assistantId = value;
  }
  /** @internal */
  protected override defaultStrings = STRINGS;
  /** @internal the tool search's text */
  declare _query: string;
  readonly #view = new StoreController(this, (s) => ({
    servers: s.servers,
    connections: s.connections,
    catalogues: s.catalogues,
    profile: s.assistants[this.assistantId ?? 'default'],
  }));

  constructor() {
    super();
    this.assistantId = 'default';
    this._query = '';
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('assistantId') || changed.has('hub')) this.#view.refresh();
  }

  get #profile(): AssistantProfile {
    return this.hub.assistants.get(this.assistantId);
  }

  async #apply(patch: AssistantPatch) {
    if (!this.emit(new McpToolSelectionChangeRequestEvent({ assistantId: this.assistantId, patch }))) {
      // vetoed: put the controls back as the profile says
      this.requestUpdate();
      return;
    }
    await this.hub.assistants.update(this.assistantId, patch);
  }

  #selection(): Record<string, { tools?: string[] }> {
    const p = this.#profile;
    return p.servers === 'all'
      ? Object.fromEntries(Object.keys(this.#view.value.servers).map((id) => [id, {}]))
      : { ...p.servers };
  }

  #toggleServer(id: string, on: boolean) {
    const servers = this.#selection();
    if (on) servers[id] = {};
    else delete servers[id];
    void this.#apply({ servers });
  }

  #toggleTool(serverId: string, tool: string, on: boolean) {
    const servers = this.#selection();
    const all = (this.#view.value.catalogues[serverId]?.tools ?? []).filter(modelVisible).map((t) => t.name);
    const current = new Set(servers[serverId] ? (servers[serverId].tools ?? all) : []);
    if (on) current.add(tool);
    else current.delete(tool);
    if (current.size === 0) delete servers[serverId];
    else servers[serverId] = current.size === all.length ? {} : { tools: all.filter((t) => current.has(t)) };
    void this.#apply({ servers });
  }

  #togglePin(serverId: string, tool: string, on: boolean) {
    const rest = this.#profile.pinned.filter((p) => !(p.serverId === serverId && p.tool === tool));
    void this.#apply({ pinned: on ? [...rest, { serverId, tool }] : rest });
  }

  #setAll(on: boolean) {
    void this.#apply({ servers: on ? 'all' : {} });
  }

  /** Characters and approximate tokens the selected tool definitions add to each request. */
  get contextCost(): { characters: number; tokens: number } {
    const characters = JSON.stringify(this.hub.toolsFor('openai', { assistantId: this.assistantId })).length;
    return { characters, tokens: Math.ceil(characters / 4) };
  }

  override render() {
    const { servers, connections, catalogues } = this.#view.value;
    const profile = this.#profile;
    const list = this.hub.servers.list();
    const cost = this.contextCost;
    const tokens = toolTokens(this.hub, this.assistantId);
    const pinned = new Set(profile.pinned.map((p) => toolKey(p.serverId, p.tool)));
    const terms = searchTerms(this._query);
    // "Run without asking" says what it means while it is the mode (issue 38)
    const auto = profile.approval === 'auto';
    // while searching: only servers with a tool that matches, each opened on its matches
    const shown = terms.length
      ? list.filter((s) => (catalogues[s.id]?.tools ?? []).some((t) => modelVisible(t) && matches(t, terms)))
      : list;
    return html`
      <section>
        <h2 id="servers-h">${this.t('servers')}</h2>
        ${
          list.length === 0
            ? html`<p class="muted">${this.t('noServers')}</p>`
            : html`<div class="row">
                  <button data-action="all" @click=${() => this.#setAll(true)}>${this.t('selectAll')}</button>
                  <button data-action="none" @click=${() => this.#setAll(false)}>${this.t('selectNone')}</button>
                </div>
                <input
                  type="search"
                  part="search"
                  aria-label=${this.t('search')}
                  placeholder=${this.t('search')}
                  .value=${live(this._query)}
                  @input=${(e: Event) => (this._query = (e.target as HTMLInputElement).value)}
                />
                <p class="muted" id="pin-help" part="pin-help">${this.t('pinHelp')}</p>
                ${terms.length && !shown.length ? html`<p class="muted" role="status">${this.t('noMatch')}</p>` : nothing}
                <ul part="servers" aria-labelledby="servers-h">
                  ${repeat(
                    shown,
                    (s) => s.id,
                    (s) => {
                      const sel = profile.servers === 'all' ? {} : profile.servers[s.id];
                      // tools only a server's own view may call (MCP Apps) are not the model's to choose
                      const every = catalogues[s.id]?.tools ?? [];
                      const tools = every.filter(modelVisible);
                      // counted apart, so this count agrees with the manager's (issue 38)
                      const appOnly = every.length - tools.length;
                      const chosen = sel
                        ? sel.tools
                          ? new Set(sel.tools)
                          : new Set(tools.map((t) => t.name))
                        : new Set<string>();
                      const status = connections[s.id]?.status ?? 'disconnected';
                      const listed = terms.length ? tools.filter((t) => matches(t, terms)) : tools;
                      // "3/9 tools", "1 tool"
                      const n = tools.length;
                      const count = `${sel ? `${chosen.size}/` : ''}${n} ${this.t(n === 1 ? 'tool' : 'tools')}`;
                      return html`<li class="server" part="server" data-server=${s.id}>
                        <div class="row">
                          <input
                            type="checkbox"
                            id=${`srv-${s.id}`}
                            .checked=${live(!!sel)}
                            @change=${(e: Event) => this.#toggleServer(s.id, (e.target as HTMLInputElement).checked)}
                          />
                          <label class="name" for=${`srv-${s.id}`}>${s.name}</label>
                          <span class="status" data-status=${status}>${this.t(status)}</span>
                          <span class="muted count"
                            >${count}${
                              appOnly
                                ? html` ·
                                    <span
                                      class="app-only"
                                      title=${this.t('appOnlyTitle').replace('{n}', String(appOnly))}
                                      >${this.t('appOnly').replace('{n}', String(appOnly))}</span
                                    >`
                                : nothing
                            }</span
                          >
                          ${tokensLabel(tokens.perServer.get(s.id), this.t('tokensShort'))}
                        </div>
                        ${
                          sel && tools.length && (status === 'error' || status === 'needs-sign-in')
                            ? html`<p class="down-note" part="down">${this.t('down')}</p>`
                            : nothing
                        }
                        ${
                          tools.length
                            ? html`<details ?open=${terms.length > 0}>
                                <summary>${this.t('chooseTools')}</summary>
                                <ul class="tools">
                                  ${listed.map((t, i) => {
                                    const id = `tool-${s.id}-${t.name}`;
                                    // by position: a tool's name may hold a space, which an id list cannot
                                    const descId = `desc-${s.id}-${i}`;
                                    return html`<li class="tool">
                                      <input
                                        type="checkbox"
                                        id=${id}
                                        data-tool=${t.name}
                                        aria-describedby=${t.description?.trim() ? descId : nothing}
                                        .checked=${live(chosen.has(t.name))}
                                        @change=${(e: Event) => this.#toggleTool(s.id, t.name, (e.target as HTMLInputElement).checked)}
                                      />
                                      <label class="name" for=${id}>${t.title ?? t.name}</label>
                                      <span class="end">
                                        ${safetyLabel(t, (k) => this.t(k))}
                                        ${tokensLabel(tokens.perTool.get(toolKey(s.id, t.name)), this.t('tokensShort'))}
                                        ${pinToggle(
                                          pinned.has(toolKey(s.id, t.name)),
                                          `${this.t('pin')} ${t.title ?? t.name}`,
                                          this.t('pin'),
                                          () => this.#togglePin(s.id, t.name, !pinned.has(toolKey(s.id, t.name))),
                                        )}
                                      </span>
                                      ${toolDescription(t, descId)}
                                    </li>`;
                                  })}
                                </ul>
                              </details>`
                            : html`<p class="muted">${this.t('notDiscovered')}</p>`
                        }
                      </li>`;
                    },
                  )}
                </ul>`
        }
      </section>
      <section>
        <fieldset part="approval">
          <legend>${this.t('approval')}</legend>
          ${(['always-ask', 'trusted-only', 'auto'] as ApprovalMode[]).map(
            (m) =>
              html`<label
                ><input
                  type="radio"
                  name="approval"
                  value=${m}
                  aria-describedby=${m === 'auto' && auto ? 'auto-warning' : nothing}
                  .checked=${live(profile.approval === m)}
                  @change=${() => void this.#apply({ approval: m })}
                />
                ${this.t(m)}</label
              >`,
          )}
          ${
            auto
              ? html`<p id="auto-warning" class="auto-warning" part="auto-warning">${this.t('autoWarning')}</p>`
              : nothing
          }
        </fieldset>
      </section>
      <section part="trusted">
        <h3>${this.t('trusted')}</h3>
        ${
          profile.trusted.length === 0
            ? html`<p class="muted">${this.t('noTrusted')}</p>`
            : html`<ul>
                ${profile.trusted.map(
                  (t) =>
                    html`<li class="row">
                      <span class="name">${servers[t.serverId]?.name ?? t.serverId} › ${t.tool}</span>
                      <button
                        data-action="untrust"
                        aria-label=${`${this.t('untrust')} ${t.tool}`}
                        @click=${() => void this.#apply({ trusted: profile.trusted.filter((x) => x !== t) })}
                      >
                        ${this.t('untrust')}
                      </button>
                    </li>`,
                )}
              </ul>`
        }
      </section>
      <p part="cost" class="muted" aria-live="polite">
        ${this.t('cost')}: ${cost.characters.toLocaleString('en')} ${this.t('characters')},
        ~${cost.tokens.toLocaleString('en')} ${this.t('tokens')}
      </p>
      ${nothing}
    `;
  }
}
