import { html, nothing, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { baseStyles, define, McpElement } from '../../internal/mcp-element.js';
import { renderResult, resultStrings } from '../../internal/result-view.js';
import { initialValue, McpSchemaForm } from '../../internal/schema-form.js';
import { StoreController } from '../../controllers/store-controller.js';
import { validateArguments, type ToolCallRecord } from '../../core/calls/records.js';
import type { ServerCatalogue } from '../../core/types.js';
import type { ServerConfig } from '../../core/schemas.js';
import { styles } from './mcp-tool-explorer.styles.js';

void McpSchemaForm; // registers <mcp-schema-form>

const STRINGS = {
  tools: 'Tools',
  resources: 'Resources',
  prompts: 'Prompts',
  search: 'Search tools',
  noTools: 'No tools. Connect a server to discover its tools.',
  noMatch: 'No tool matches.',
  count: 'tools',
  choose: 'Choose a tool to see its details and try it.',
  readOnly: 'read-only',
  destructive: 'destructive',
  idempotent: 'idempotent',
  openWorld: 'open world',
  inputSchema: 'Input schema',
  outputSchema: 'Output schema',
  copySchema: 'Copy schema',
  copied: 'Copied',
  tryIt: 'Try it',
  form: 'Form',
  rawJson: 'Raw JSON',
  argumentsJson: 'Arguments (JSON)',
  run: 'Run',
  running: 'Running…',
  invalid: 'Arguments do not match the schema:',
  notJson: 'Not valid JSON:',
  on: 'on',
  noResources: 'No resources.',
  templates: 'Resource templates',
  read: 'Read',
  noPrompts: 'No prompts.',
  get: 'Get',
  image: 'Image',
  audio: 'Audio',
  resourceLink: 'Resource',
  embeddedResource: 'Embedded resource',
  binary: 'binary data',
  structured: 'Structured result',
  noContent: 'No content.',
  bytes: 'bytes',
};
export type McpToolExplorerStrings = typeof STRINGS;

interface Entry {
  key: string;
  serverId: string;
  serverName: string;
  tool: Tool;
  /** Lower-cased name, title and description, for search. */
  haystack: string;
}

/** A string usable inside an id. */
const idPart = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

const RASTER = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+=*$/;
const OVERSCAN = 6;

/** RFC 6570 level-1 expansion: `{name}` → the encoded value. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name.replace(/^[+#./;?&]/, '')] ?? ''),
  );
}
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].flatMap((m) =>
    m[1]
      .replace(/^[+#./;?&]/, '')
      .split(',')
      .map((p) => p.replace(/\*$|:\d+$/, '')),
  );
}

/**
 * Browse and try the tools of one server (`server-id`) or of all: search, annotation badges,
 * icons, input and output schemas, "Try it" with a form generated from the input schema (or raw
 * JSON), and the result. Tabs for resources (list, templates, read) and prompts (list, get).
 * The tool list is virtualised: thousands of tools stay responsive.
 *
 * @summary Explore an MCP server's tools, resources and prompts, and try them.
 * @tag mcp-tool-explorer
 *
 * @attr server-id - Show one server; all servers when absent.
 * @attr theme - `light` or `dark` to override `prefers-color-scheme`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpToolExplorerStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpToolCallRequestEvent} mcp-tool-call-request - From the hub when "Try it" runs a tool; cancelable.
 * @fires {McpToolCallCompletedEvent} mcp-tool-call-completed - From the hub when it returns.
 *
 * @csspart tabs - The tab list.
 * @csspart search - The search box.
 * @csspart list - The (virtualised) tool list.
 * @csspart detail - The selected tool's panel.
 * @csspart try - The "Try it" section.
 * @csspart result - A result.
 *
 * @cssprop --mcp-tool-explorer-list-height - Height of the tool list.
 */
export class McpToolExplorerElement extends McpElement<McpToolExplorerStrings> {
  static override properties = {
    ...McpElement.properties,
    serverId: { attribute: 'server-id' },
    _tab: { state: true },
    _query: { state: true },
    _selected: { state: true },
    _active: { state: true },
    _scroll: { state: true },
    _args: { state: true },
    _raw: { state: true },
    _rawText: { state: true },
    _run: { state: true },
    _copied: { state: true },
    _resource: { state: true },
    _templateValues: { state: true },
    _prompt: { state: true },
    _promptArgs: { state: true },
  };
  static override styles = [baseStyles, styles];
  /** Show only this server's tools. */
  declare serverId?: string;
  declare _tab: 'tools' | 'resources' | 'prompts';
  declare _query: string;
  declare _selected?: string;
  declare _active: number;
  declare _scroll: number;
  declare _args: unknown;
  declare _raw: boolean;
  declare _rawText: string;
  declare _run?: { state: 'running' | 'done'; record?: ToolCallRecord; error?: string };
  declare _copied: boolean;
  declare _resource?: { uri: string; state: 'loading' | 'done' | 'error'; result?: ReadResourceResult; error?: string };
  declare _templateValues: Record<string, Record<string, string>>;
  declare _prompt?: {
    key: string;
    state: 'idle' | 'loading' | 'done' | 'error';
    result?: GetPromptResult;
    error?: string;
  };
  declare _promptArgs: Record<string, string>;
  /** @internal */
  protected override defaultStrings = STRINGS;
  readonly #view = new StoreController(this, (s) => ({ servers: s.servers, catalogues: s.catalogues }));
  #entries?: { key: unknown; list: Entry[] };
  #filtered?: { entries: Entry[]; query: string; list: Entry[] };
  #rowHeight = 56;

  constructor() {
    super();
    this._tab = 'tools';
    this._query = '';
    this._active = 0;
    this._scroll = 0;
    this._args = {};
    this._raw = false;
    this._rawText = '{}';
    this._copied = false;
    this._templateValues = {};
    this._promptArgs = {};
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('hub')) this.#view.refresh();
  }

  #servers(): { server: ServerConfig; catalogue: ServerCatalogue }[] {
    const { catalogues } = this.#view.value;
    return this.hub.servers
      .list()
      .filter((s) => (!this.serverId || s.id === this.serverId) && catalogues[s.id])
      .map((server) => ({ server, catalogue: catalogues[server.id] }));
  }

  /** Every tool shown, memoised on the catalogues' identity. */
  get entries(): Entry[] {
    const key = [this.#view.value.catalogues, this.#view.value.servers, this.serverId];
    if (
      this.#entries &&
      this.#entries.key instanceof Array &&
      (this.#entries.key as unknown[]).every((k, i) => k === key[i])
    )
      return this.#entries.list;
    const list = this.#servers().flatMap(({ server, catalogue }) =>
      catalogue.tools.map((tool) => ({
        key: `${server.id}\u0000${tool.name}`,
        serverId: server.id,
        serverName: server.name,
        tool,
        haystack: `${tool.name}\n${tool.title ?? ''}\n${(tool.description ?? '').slice(0, 2000)}`.toLowerCase(),
      })),
    );
    this.#entries = { key, list };
    return list;
  }

  /** The tools matching the search. */
  get filtered(): Entry[] {
    const entries = this.entries;
    const q = this._query.trim().toLowerCase();
    if (this.#filtered && this.#filtered.entries === entries && this.#filtered.query === q) return this.#filtered.list;
    const terms = q.split(/\s+/).filter(Boolean);
    const list = terms.length ? entries.filter((e) => terms.every((t) => e.haystack.includes(t))) : entries;
    this.#filtered = { entries, query: q, list };
    return list;
  }

  #select(e: Entry) {
    this._selected = e.key;
    this._args = initialValue(e.tool.inputSchema) ?? {};
    this._rawText = JSON.stringify(this._args, null, 2);
    this._run = undefined;
    this._copied = false;
  }

  #onListKey(ev: KeyboardEvent) {
    const list = this.filtered;
    if (!list.length) return;
    let next = this._active;
    if (ev.key === 'ArrowDown') next = Math.min(list.length - 1, this._active + 1);
    else if (ev.key === 'ArrowUp') next = Math.max(0, this._active - 1);
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = list.length - 1;
    else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      this.#select(list[this._active]);
      return;
    } else return;
    ev.preventDefault();
    this._active = next;
    const vp = ev.currentTarget as HTMLElement;
    const top = next * this.#rowHeight;
    if (top < vp.scrollTop) vp.scrollTop = top;
    else if (top + this.#rowHeight > vp.scrollTop + vp.clientHeight)
      vp.scrollTop = top + this.#rowHeight - vp.clientHeight;
    this._scroll = vp.scrollTop;
  }

  #badges(t: Tool) {
    const a = t.annotations;
    if (!a) return nothing;
    return html`<span class="badges">
      ${a.readOnlyHint ? html`<span class="badge read-only">${this.t('readOnly')}</span>` : nothing}
      ${a.destructiveHint && !a.readOnlyHint ? html`<span class="badge destructive">${this.t('destructive')}</span>` : nothing}
      ${a.idempotentHint ? html`<span class="badge">${this.t('idempotent')}</span>` : nothing}
      ${a.openWorldHint ? html`<span class="badge">${this.t('openWorld')}</span>` : nothing}
    </span>`;
  }

  #icon(t: Tool) {
    // only inline raster images: a remote icon URL would be fetched without the user seeing it
    const icon = (t.icons ?? []).find((i) => RASTER.test(i.src));
    return icon ? html`<img class="icon" src=${icon.src} alt="" />` : nothing;
  }

  #renderList() {
    const list = this.filtered;
    const viewportRows = 24;
    const first = Math.max(0, Math.floor(this._scroll / this.#rowHeight) - OVERSCAN);
    const last = Math.min(list.length, first + viewportRows + OVERSCAN * 2);
    const active = list[this._active] ? `row-${this._active}` : undefined;
    return html`<div>
      <input
        type="search"
        part="search"
        aria-label=${this.t('search')}
        placeholder=${this.t('search')}
        .value=${live(this._query)}
        @input=${(e: Event) => {
          this._query = (e.target as HTMLInputElement).value;
          this._active = 0;
          this._scroll = 0;
          const vp = this.renderRoot.querySelector('.viewport') as HTMLElement | null;
          if (vp) vp.scrollTop = 0;
        }}
      />
      <p class="muted" role="status" aria-live="polite">${list.length} ${this.t('count')}</p>
      ${
        list.length === 0
          ? html`<p class="muted">${this.entries.length === 0 ? this.t('noTools') : this.t('noMatch')}</p>`
          : html`<div
              class="viewport"
              part="list"
              role="listbox"
              tabindex="0"
              aria-label=${this.t('tools')}
              aria-activedescendant=${active ?? nothing}
              @scroll=${(e: Event) => (this._scroll = (e.target as HTMLElement).scrollTop)}
              @keydown=${this.#onListKey}
            >
              <div class="spacer" style=${`height:${list.length * this.#rowHeight}px`}>
                ${list.slice(first, last).map((e, i) => {
                  const index = first + i;
                  return html`<div
                    class="row ${index === this._active ? 'active' : ''}"
                    id=${`row-${index}`}
                    role="option"
                    aria-selected=${e.key === this._selected ? 'true' : 'false'}
                    aria-setsize=${list.length}
                    aria-posinset=${index + 1}
                    style=${`top:${index * this.#rowHeight}px`}
                    data-tool=${e.tool.name}
                    @click=${() => {
                      this._active = index;
                      this.#select(e);
                    }}
                  >
                    <div class="title">
                      ${this.#icon(e.tool)}${e.tool.title ?? e.tool.name}${this.serverId ? nothing : html`<span class="muted"> · ${e.serverName}</span>`}
                    </div>
                    <div class="desc">${(e.tool.description ?? '').slice(0, 200)}</div>
                  </div>`;
                })}
              </div>
            </div>`
      }
    </div>`;
  }

  async #copySchema(t: Tool) {
    const text = JSON.stringify(
      { inputSchema: t.inputSchema, ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}) },
      null,
      2,
    );
    try {
      await navigator.clipboard.writeText(text);
      this._copied = true;
    } catch {
      this._copied = false;
    }
  }

  /** Current arguments: from the form, or parsed from the raw JSON. */
  #currentArgs(): { value?: Record<string, unknown>; error?: string } {
    if (!this._raw) return { value: (this._args ?? {}) as Record<string, unknown> };
    try {
      const v = JSON.parse(this._rawText);
      if (!v || typeof v !== 'object' || Array.isArray(v))
        return { error: `${this.t('notJson')} an object is required` };
      return { value: v };
    } catch (e) {
      return { error: `${this.t('notJson')} ${(e as Error).message}` };
    }
  }

  async #runTool(e: Entry) {
    const args = this.#currentArgs();
    if (!args.value) return;
    this._run = { state: 'running' };
    try {
      const record = await this.hub.callTool({
        serverId: e.serverId,
        tool: e.tool.name,
        arguments: args.value,
        source: 'user',
      });
      this._run = { state: 'done', record };
    } catch (err) {
      this._run = { state: 'done', error: (err as Error).message };
    }
  }

  #renderDetail() {
    const e = this.entries.find((x) => x.key === this._selected);
    if (!e) return html`<div class="detail" part="detail"><p class="muted">${this.t('choose')}</p></div>`;
    const t = e.tool;
    const args = this.#currentArgs();
    const problem = args.error ?? (args.value ? validateArguments(t, args.value) : null);
    const record = this._run?.record;
    return html`<section class="detail" part="detail" aria-label=${t.title ?? t.name}>
      <h3>${this.#icon(t)}${t.title ?? t.name}</h3>
      <p class="muted"><code>${t.name}</code> ${this.t('on')} ${e.serverName}</p>
      ${this.#badges(t)} ${t.description ? html`<p class="description">${t.description}</p>` : nothing}
      <details>
        <summary>${this.t('inputSchema')}</summary>
        <pre tabindex="0">${JSON.stringify(t.inputSchema, null, 2)}</pre>
      </details>
      ${
        t.outputSchema
          ? html`<details>
              <summary>${this.t('outputSchema')}</summary>
              <pre tabindex="0">${JSON.stringify(t.outputSchema, null, 2)}</pre>
            </details>`
          : nothing
      }
      <div class="toolbar">
        <button data-action="copy" @click=${() => void this.#copySchema(t)}>${this.t('copySchema')}</button
        ><span role="status" aria-live="polite">${this._copied ? this.t('copied') : ''}</span>
      </div>
      <section part="try" aria-label=${this.t('tryIt')}>
        <h4>${this.t('tryIt')}</h4>
        <div class="toolbar" role="radiogroup" aria-label=${this.t('tryIt')}>
          <label
            ><input
              type="radio"
              name="mode"
              .checked=${live(!this._raw)}
              @change=${() => {
                const a = this.#currentArgs();
                if (a.value) this._args = a.value;
                this._raw = false;
              }}
            />
            ${this.t('form')}</label
          >
          <label
            ><input
              type="radio"
              name="mode"
              data-action="raw"
              .checked=${live(this._raw)}
              @change=${() => {
                this._rawText = JSON.stringify(this._args ?? {}, null, 2);
                this._raw = true;
              }}
            />
            ${this.t('rawJson')}</label
          >
        </div>
        ${
          this._raw
            ? html`<div class="raw field">
                <label for="raw-args">${this.t('argumentsJson')}</label>
                <textarea
                  id="raw-args"
                  aria-invalid=${problem ? 'true' : 'false'}
                  aria-describedby="args-problem"
                  .value=${live(this._rawText)}
                  @input=${(ev: Event) => (this._rawText = (ev.target as HTMLTextAreaElement).value)}
                ></textarea>
              </div>`
            : html`<mcp-schema-form
                id-prefix="arg"
                .schema=${t.inputSchema}
                .value=${this._args}
                @input=${(ev: Event) => (this._args = (ev.target as McpSchemaForm).value)}
              ></mcp-schema-form>`
        }
        <p class="invalid" id="args-problem" aria-live="polite">${problem ? `${this.t('invalid')} ${problem}` : ''}</p>
        <div class="toolbar">
          <button
            class="primary"
            data-action="run"
            ?disabled=${!!args.error || this._run?.state === 'running'}
            @click=${() => void this.#runTool(e)}
          >
            ${this._run?.state === 'running' ? this.t('running') : this.t('run')}
          </button>
        </div>
        <div aria-live="polite">
          ${
            record
              ? html`${
                  record.result
                    ? renderResult(
                        record.result,
                        resultStrings((k) => this.t(k)),
                      )
                    : nothing
                }
                ${record.error && !(record.error.code === 'tool-error' && record.result) ? html`<p class="error-text">${record.error.message}</p>` : nothing}`
              : nothing
          }
          ${this._run?.error ? html`<p class="error-text">${this._run.error}</p>` : nothing}
        </div>
      </section>
    </section>`;
  }

  async #read(serverId: string, uri: string) {
    this._resource = { uri, state: 'loading' };
    try {
      this._resource = { uri, state: 'done', result: await this.hub.client(serverId).readResource(uri) };
    } catch (e) {
      this._resource = { uri, state: 'error', error: (e as Error).message };
    }
  }

  #renderResourceContents() {
    const r = this._resource;
    if (!r) return nothing;
    if (r.state === 'loading') return html`<p class="muted" role="status">${this.t('read')}…</p>`;
    if (r.state === 'error') return html`<p class="error-text" role="alert">${r.error}</p>`;
    return html`<div part="result" aria-live="polite">
      ${(r.result?.contents ?? []).map((c) => {
        const item = c as { uri: string; mimeType?: string; text?: string; blob?: string };
        if (typeof item.text === 'string')
          return html`<p class="muted"><code>${item.uri}</code></p>
            <pre tabindex="0">${item.text}</pre>`;
        const img = item.mimeType && item.blob ? `data:${item.mimeType};base64,${item.blob}` : '';
        return RASTER.test(img)
          ? html`<p class="muted"><code>${item.uri}</code></p>
              <img src=${img} alt=${item.uri} />`
          : html`<p class="muted">
              <code>${item.uri}</code> — ${item.mimeType ?? this.t('binary')},
              ${Math.round(((item.blob?.length ?? 0) * 3) / 4)} ${this.t('bytes')}
            </p>`;
      })}
    </div>`;
  }

  #renderResources() {
    const servers = this.#servers();
    const resources: [ServerConfig, Resource][] = servers.flatMap(({ server, catalogue }) =>
      catalogue.resources.map((r) => [server, r] as [ServerConfig, Resource]),
    );
    const templates: [ServerConfig, ResourceTemplate][] = servers.flatMap(({ server, catalogue }) =>
      catalogue.resourceTemplates.map((r) => [server, r] as [ServerConfig, ResourceTemplate]),
    );
    return html`<div class="layout">
      <div>
        ${
          resources.length === 0
            ? html`<p class="muted">${this.t('noResources')}</p>`
            : html`<ul class="plain">
                ${resources.map(
                  ([s, r]) =>
                    html`<li>
                      <strong>${r.title ?? r.name}</strong> <span class="muted">${r.mimeType ?? ''}</span><br /><code
                        >${r.uri}</code
                      >
                      ${r.description ? html`<div class="muted">${r.description}</div>` : nothing}
                      <div>
                        <button
                          data-action="read"
                          data-uri=${r.uri}
                          aria-label=${`${this.t('read')} ${r.name}`}
                          @click=${() => void this.#read(s.id, r.uri)}
                        >
                          ${this.t('read')}
                        </button>
                      </div>
                    </li>`,
                )}
              </ul>`
        }
        ${
          templates.length
            ? html`<h4>${this.t('templates')}</h4>
                <ul class="plain">
                  ${templates.map(([s, t]) => {
                    const key = `${s.id}\u0000${t.uriTemplate}`;
                    const values = this._templateValues[key] ?? {};
                    return html`<li>
                      <strong>${t.title ?? t.name}</strong><br /><code>${t.uriTemplate}</code>
                      ${t.description ? html`<div class="muted">${t.description}</div>` : nothing}
                      ${templateParams(t.uriTemplate).map(
                        (p) =>
                          html`<div class="field">
                            <label for=${`tp-${idPart(t.name)}-${idPart(p)}`}>${p}</label>
                            <input
                              id=${`tp-${idPart(t.name)}-${idPart(p)}`}
                              data-param=${p}
                              .value=${live(values[p] ?? '')}
                              @input=${(e: Event) => (this._templateValues = { ...this._templateValues, [key]: { ...values, [p]: (e.target as HTMLInputElement).value } })}
                            />
                          </div>`,
                      )}
                      <button
                        data-action="read-template"
                        aria-label=${`${this.t('read')} ${t.name}`}
                        @click=${() => void this.#read(s.id, expandTemplate(t.uriTemplate, values))}
                      >
                        ${this.t('read')}
                      </button>
                    </li>`;
                  })}
                </ul>`
            : nothing
        }
      </div>
      <div>${this.#renderResourceContents()}</div>
    </div>`;
  }

  async #getPrompt(serverId: string, p: Prompt) {
    const key = `${serverId}\u0000${p.name}`;
    this._prompt = { key, state: 'loading' };
    try {
      const args = Object.fromEntries(
        (p.arguments ?? [])
          .map((a) => [a.name, this._promptArgs[`${key}\u0000${a.name}`] ?? ''])
          .filter(([, v]) => v !== ''),
      );
      this._prompt = { key, state: 'done', result: await this.hub.client(serverId).getPrompt(p.name, args) };
    } catch (e) {
      this._prompt = { key, state: 'error', error: (e as Error).message };
    }
  }

  #renderPrompts() {
    const prompts: [ServerConfig, Prompt][] = this.#servers().flatMap(({ server, catalogue }) =>
      catalogue.prompts.map((p) => [server, p] as [ServerConfig, Prompt]),
    );
    if (prompts.length === 0) return html`<p class="muted">${this.t('noPrompts')}</p>`;
    const current = this._prompt;
    return html`<div class="layout">
      <ul class="plain">
        ${prompts.map(([s, p]) => {
          const key = `${s.id}\u0000${p.name}`;
          return html`<li>
            <strong>${p.title ?? p.name}</strong
            >${p.description ? html`<div class="muted">${p.description}</div>` : nothing}
            ${(p.arguments ?? []).map(
              (a) =>
                html`<div class="field">
                  <label for=${`pa-${idPart(p.name)}-${idPart(a.name)}`}
                    >${a.name}${a.required ? html` <span aria-hidden="true">*</span>` : nothing}</label
                  >
                  <input
                    id=${`pa-${idPart(p.name)}-${idPart(a.name)}`}
                    data-prompt-arg=${a.name}
                    ?required=${!!a.required}
                    aria-describedby=${a.description ? `pad-${idPart(p.name)}-${idPart(a.name)}` : nothing}
                    .value=${live(this._promptArgs[`${key}\u0000${a.name}`] ?? '')}
                    @input=${(e: Event) => (this._promptArgs = { ...this._promptArgs, [`${key}\u0000${a.name}`]: (e.target as HTMLInputElement).value })}
                  />
                  ${a.description ? html`<span class="muted" id=${`pad-${idPart(p.name)}-${idPart(a.name)}`}>${a.description}</span>` : nothing}
                </div>`,
            )}
            <button
              data-action="get-prompt"
              data-prompt=${p.name}
              aria-label=${`${this.t('get')} ${p.name}`}
              @click=${() => void this.#getPrompt(s.id, p)}
            >
              ${this.t('get')}
            </button>
            ${current?.key === key && current.state === 'error' ? html`<p class="error-text" role="alert">${current.error}</p>` : nothing}
          </li>`;
        })}
      </ul>
      <div aria-live="polite">
        ${
          current?.state === 'done' && current.result
            ? html`${current.result.description ? html`<p class="muted">${current.result.description}</p>` : nothing}
              ${current.result.messages.map(
                (m) =>
                  html`<div class="message">
                    <strong>${m.role}</strong>${renderResult(
                      { content: [m.content] as never },
                      resultStrings((k) => this.t(k)),
                    )}
                  </div>`,
              )}`
            : nothing
        }
      </div>
    </div>`;
  }

  #onTabKey(e: KeyboardEvent) {
    const tabs = ['tools', 'resources', 'prompts'] as const;
    const i = tabs.indexOf(this._tab);
    const next = e.key === 'ArrowRight' ? tabs[(i + 1) % 3] : e.key === 'ArrowLeft' ? tabs[(i + 2) % 3] : undefined;
    if (!next) return;
    e.preventDefault();
    this._tab = next;
    this.updateComplete.then(() => (this.renderRoot.querySelector(`#tab-${next}`) as HTMLElement | null)?.focus());
  }

  override render() {
    const tabs = ['tools', 'resources', 'prompts'] as const;
    return html`<div role="tablist" part="tabs" aria-label=${this.t('tools')} @keydown=${this.#onTabKey}>
        ${tabs.map((t) => html`<button role="tab" id=${`tab-${t}`} aria-controls=${`panel-${t}`} aria-selected=${this._tab === t ? 'true' : 'false'} tabindex=${this._tab === t ? 0 : -1} @click=${() => (this._tab = t)}>${this.t(t)}</button>`)}
      </div>
      <div role="tabpanel" id=${`panel-${this._tab}`} aria-labelledby=${`tab-${this._tab}`}>
        ${this._tab === 'tools' ? html`<div class="layout">${this.#renderList()}${this.#renderDetail()}</div>` : this._tab === 'resources' ? this.#renderResources() : this.#renderPrompts()}
      </div>`;
  }
}

define('mcp-tool-explorer', McpToolExplorerElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-explorer': McpToolExplorerElement;
  }
}
