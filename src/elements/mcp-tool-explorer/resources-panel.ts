// The explorer's resources tab: resources and resource templates of the shown servers, read on
// request. One chunk with the other of the two (resources-prompts.ts), imported when either tab
// is first shown; one `ResourcesTab` per explorer holds what is open, the templates' values and
// the watch errors.
import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  expandTemplate,
  templateParams,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerConfig,
} from '../../core/index.js';
import { renderResult, resultStrings } from '../../internal/result-view.js';
import { ExplorerPart, idPart, type ExplorerContext, type TabView, type Translate } from './host.js';
import type { ContentsStrings, ResourcesStrings } from './strings.js';
import { resourceKey } from './resource-watch.js';
import { deepFocus, reveal } from './reveal.js';
import { Suggestions } from './suggest.js';

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const RESOURCES_STRINGS: ResourcesStrings = {
  noResources: 'No resources.',
  templates: 'Resource templates',
  read: 'Read',
  watch: 'Watch',
  updated: 'Updated',
  watchFailed: 'Could not change the watch:',
  contentsOf: 'Contents of',
};
type Tr = Translate<ResourcesStrings & ContentsStrings>;

interface Open {
  serverId: string;
  uri: string;
  state: 'loading' | 'done' | 'error';
  result?: ReadResourceResult;
  error?: string;
}

export class ResourcesTab extends ExplorerPart implements TabView {
  /** The resource open in the contents pane. */
  #open?: Open;
  /** The values typed into each template's variables (`serverId\0uriTemplate`). */
  #values: Record<string, Record<string, string>> = {};
  /** Why watching a resource (`serverId\0uri`) failed. */
  #watchErrors: Record<string, string> = {};
  readonly #suggestions: Suggestions;

  constructor(context: ExplorerContext) {
    super(context);
    this.#suggestions = new Suggestions(context.host);
  }

  reread(serverId: string, uri: string): void {
    const r = this.#open;
    if (r?.serverId === serverId && r.uri === uri && r.state !== 'loading') void this.read(serverId, () => uri);
  }

  /**
   * Read a resource into the contents pane (also when a watched one was updated while open). A
   * read the user asked for (`asked`) then focuses the pane and scrolls it into view.
   */
  async read(serverId: string, uri: () => string, asked = false): Promise<void> {
    const before = asked ? deepFocus() : undefined;
    let target = '';
    try {
      target = uri();
      this.#open = { serverId, uri: target, state: 'loading' };
      this.changed();
      const result = await this.context.host.hub.client(serverId).readResource(target);
      this.#open = { serverId, uri: target, state: 'done', result };
    } catch (e) {
      this.#open = { serverId, uri: target, state: 'error', error: (e as Error).message };
    }
    this.changed();
    if (before !== undefined) await reveal(this.context.host, '#contents', before);
  }

  /** Watch or stop watching a resource (a server that offers subscriptions); a failure shows by it. */
  async #toggleWatch(serverId: string, uri: string, watching: boolean) {
    const key = resourceKey(serverId, uri);
    const { [key]: _, ...rest } = this.#watchErrors;
    this.#watchErrors = rest;
    this.changed();
    const hub = this.context.host.hub;
    try {
      if (watching) await hub.unsubscribeResource(serverId, uri);
      else await hub.subscribeResource(serverId, uri);
    } catch (e) {
      this.#watchErrors = { ...this.#watchErrors, [key]: (e as Error).message };
      this.changed();
    }
  }

  #renderWatch(server: ServerConfig, resource: Resource, tr: Tr) {
    if (!this.context.host.hub.canSubscribeResources(server.id)) return nothing;
    const watching = this.context.subscriptions(server.id).includes(resource.uri);
    const error = this.#watchErrors[resourceKey(server.id, resource.uri)];
    return html`<button
        data-action="watch"
        data-uri=${resource.uri}
        aria-pressed=${watching ? 'true' : 'false'}
        aria-label=${`${tr('watch')} ${resource.name}`}
        @click=${() => void this.#toggleWatch(server.id, resource.uri, watching)}
      >
        ${tr('watch')}
      </button>
      ${error ? html`<p class="error-text" role="alert">${tr('watchFailed')} ${error}</p>` : nothing}`;
  }

  #renderContents(tr: Tr) {
    const r = this.#open;
    if (!r) return nothing;
    // the same renderer as every tool result: each content is an embedded resource
    const content = (r.result?.contents ?? []).map((resource) => ({ type: 'resource' as const, resource }));
    // a labelled region that takes focus once the answer is in (reveal.ts)
    return html`<section id="contents" class="answer" tabindex="-1" aria-labelledby="contents-title">
      <h4 id="contents-title">${tr('contentsOf')} <code>${r.uri}</code></h4>
      ${
        r.state === 'loading'
          ? html`<p class="muted" role="status">${tr('read')}…</p>`
          : r.state === 'error'
            ? html`<p class="error-text" role="alert">${r.error}</p>`
            : html`<div aria-live="polite">
                ${renderResult({ content: content as never }, { ...resultStrings(tr), embeddedResource: tr('contentsOf') })}
              </div>`
      }
    </section>`;
  }

  #renderResource(server: ServerConfig, resource: Resource, tr: Tr) {
    const key = resourceKey(server.id, resource.uri);
    const updates = this.context.updates.count(key);
    return html`<li>
      <strong>${resource.title ?? resource.name}</strong>
      <span class="muted">${resource.mimeType ?? ''}</span>
      ${updates ? html`<span class="badge" part="updated" data-updated=${updates}>${tr('updated')}</span>` : nothing}<br /><code
        >${resource.uri}</code
      >
      ${resource.description ? html`<div class="muted">${resource.description}</div>` : nothing}
      <div>
        <button
          data-action="read"
          data-uri=${resource.uri}
          aria-label=${`${tr('read')} ${resource.name}`}
          @click=${() => {
            this.context.updates.clear(key);
            void this.read(server.id, () => resource.uri, true);
          }}
        >
          ${tr('read')}
        </button>
        ${this.#renderWatch(server, resource, tr)}
      </div>
    </li>`;
  }

  #renderTemplate(server: ServerConfig, template: ResourceTemplate, tr: Tr) {
    const key = `${server.id}\u0000${template.uriTemplate}`;
    const values = this.#values[key] ?? {};
    return html`<li>
      <strong>${template.title ?? template.name}</strong><br /><code>${template.uriTemplate}</code>
      ${template.description ? html`<div class="muted">${template.description}</div>` : nothing}
      ${templateParams(template.uriTemplate).map((p) => {
        const id = `tp-${idPart(template.name)}-${idPart(p)}`;
        // the server's suggestions, when it offers completions (suggest.ts)
        const suggest = this.#suggestions.field(id, {
          serverId: server.id,
          ref: { type: 'ref/resource', uri: template.uriTemplate },
          name: p,
          context: () => this.#values[key] ?? {},
        });
        return html`<div class="field">
          <label for=${id}>${p}</label>
          <input
            id=${id}
            data-param=${p}
            list=${suggest?.list ?? nothing}
            autocomplete=${suggest ? 'off' : nothing}
            .value=${live(values[p] ?? '')}
            @focus=${suggest?.onFocus}
            @input=${(e: Event) => {
              this.#values = { ...this.#values, [key]: { ...values, [p]: (e.target as HTMLInputElement).value } };
              this.changed();
              suggest?.onInput(e);
            }}
          />
          ${suggest?.datalist ?? nothing}
        </div>`;
      })}
      <button
        data-action="read-template"
        aria-label=${`${tr('read')} ${template.name}`}
        @click=${() => void this.read(server.id, () => expandTemplate(template.uriTemplate, values), true)}
      >
        ${tr('read')}
      </button>
    </li>`;
  }

  render(tr: Tr) {
    const servers = this.context.shownServers();
    const resources = servers.flatMap(({ server, catalogue }) =>
      catalogue.resources.map((r) => [server, r] as [ServerConfig, Resource]),
    );
    const templates = servers.flatMap(({ server, catalogue }) =>
      catalogue.resourceTemplates.map((r) => [server, r] as [ServerConfig, ResourceTemplate]),
    );
    return html`<div class="layout">
      <div>
        ${
          resources.length === 0
            ? html`<p class="muted">${tr(servers.some((x) => x.catalogue.partial) ? 'listing' : 'noResources')}</p>`
            : html`<ul class="plain">
                ${resources.map(([s, r]) => this.#renderResource(s, r, tr))}
              </ul>`
        }
        ${
          templates.length
            ? html`<h4>${tr('templates')}</h4>
                <ul class="plain">
                  ${templates.map(([s, t]) => this.#renderTemplate(s, t, tr))}
                </ul>`
            : nothing
        }
      </div>
      <div>${this.#renderContents(tr)}</div>
    </div>`;
  }
}

/** Rules only this tab's markup needs. */
export const resourcesStyles = css`
  /* a watched resource: the pressed "Watch" toggle, and the mark an update leaves */
  button[data-action='watch'][aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-fg);
    border-color: var(--_accent);
  }
  [part='updated'] {
    color: var(--_accent);
    border-color: var(--_accent);
  }
`;
