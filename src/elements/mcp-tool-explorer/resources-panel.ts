// The explorer's resources tab: resources and resource templates of the shown servers, read on
// request. One chunk with the other of the two (resources-prompts.ts),
// imported when either tab is first shown.
import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  expandTemplate,
  templateParams,
  type Resource,
  type ResourceTemplate,
  type ServerConfig,
} from '../../core/index.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { renderResult, resultStrings } from '../../internal/result-view.js';
import { resourceKey } from './resource-watch.js';
import { deepFocus, reveal } from './reveal.js';
import { suggestionsOf } from './suggest.js';
import { idPart, type Translate } from './strings.js';

/**
 * Read a resource into the contents pane (also when a watched one was updated while open). A
 * read the user asked for (`asked`) then focuses the pane and scrolls it into view.
 */
export async function read(el: McpToolExplorerElement, serverId: string, uri: () => string, asked = false) {
  const before = asked ? deepFocus() : undefined;
  let target = '';
  try {
    target = uri();
    el._resource = { serverId, uri: target, state: 'loading' };
    el._resource = { serverId, uri: target, state: 'done', result: await el.hub.client(serverId).readResource(target) };
  } catch (e) {
    el._resource = { serverId, uri: target, state: 'error', error: (e as Error).message };
  }
  if (before !== undefined) await reveal(el, '#contents', before);
}

/** Watch or stop watching a resource (a server that offers subscriptions); a failure shows by it. */
async function toggleWatch(el: McpToolExplorerElement, serverId: string, uri: string, watching: boolean) {
  const key = resourceKey(serverId, uri);
  const { [key]: _, ...rest } = el._watchErrors;
  el._watchErrors = rest;
  try {
    if (watching) await el.hub.unsubscribeResource(serverId, uri);
    else await el.hub.subscribeResource(serverId, uri);
  } catch (e) {
    el._watchErrors = { ...el._watchErrors, [key]: (e as Error).message };
  }
}

function renderWatch(el: McpToolExplorerElement, server: ServerConfig, resource: Resource, tr: Translate) {
  if (!el.hub.canSubscribeResources(server.id)) return nothing;
  const key = resourceKey(server.id, resource.uri);
  const watching = (el._subscriptions[server.id] ?? []).includes(resource.uri);
  const error = el._watchErrors[key];
  return html`<button
      data-action="watch"
      data-uri=${resource.uri}
      aria-pressed=${watching ? 'true' : 'false'}
      aria-label=${`${tr('watch')} ${resource.name}`}
      @click=${() => void toggleWatch(el, server.id, resource.uri, watching)}
    >
      ${tr('watch')}
    </button>
    ${error ? html`<p class="error-text" role="alert">${tr('watchFailed')} ${error}</p>` : nothing}`;
}

function renderContents(el: McpToolExplorerElement, tr: Translate) {
  const r = el._resource;
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

function renderResource(el: McpToolExplorerElement, server: ServerConfig, resource: Resource, tr: Translate) {
  const updates = el._updated[resourceKey(server.id, resource.uri)];
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
          const { [resourceKey(server.id, resource.uri)]: _, ...rest } = el._updated;
          el._updated = rest;
          void read(el, server.id, () => resource.uri, true);
        }}
      >
        ${tr('read')}
      </button>
      ${renderWatch(el, server, resource, tr)}
    </div>
  </li>`;
}

function renderTemplate(el: McpToolExplorerElement, server: ServerConfig, template: ResourceTemplate, tr: Translate) {
  const key = `${server.id}\u0000${template.uriTemplate}`;
  const values = el._templateValues[key] ?? {};
  return html`<li>
    <strong>${template.title ?? template.name}</strong><br /><code>${template.uriTemplate}</code>
    ${template.description ? html`<div class="muted">${template.description}</div>` : nothing}
    ${templateParams(template.uriTemplate).map((p) => {
      const id = `tp-${idPart(template.name)}-${idPart(p)}`;
      // the server's suggestions, when it offers completions (suggest.ts)
      const suggest = suggestionsOf(el).field(id, {
        serverId: server.id,
        ref: { type: 'ref/resource', uri: template.uriTemplate },
        name: p,
        context: () => el._templateValues[key] ?? {},
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
            el._templateValues = {
              ...el._templateValues,
              [key]: { ...values, [p]: (e.target as HTMLInputElement).value },
            };
            suggest?.onInput(e);
          }}
        />
        ${suggest?.datalist ?? nothing}
      </div>`;
    })}
    <button
      data-action="read-template"
      aria-label=${`${tr('read')} ${template.name}`}
      @click=${() => void read(el, server.id, () => expandTemplate(template.uriTemplate, values), true)}
    >
      ${tr('read')}
    </button>
  </li>`;
}

export function renderResources(el: McpToolExplorerElement, tr: Translate) {
  const servers = el._shownServers();
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
              ${resources.map(([s, r]) => renderResource(el, s, r, tr))}
            </ul>`
      }
      ${
        templates.length
          ? html`<h4>${tr('templates')}</h4>
              <ul class="plain">
                ${templates.map(([s, t]) => renderTemplate(el, s, t, tr))}
              </ul>`
          : nothing
      }
    </div>
    <div>${renderContents(el, tr)}</div>
  </div>`;
}

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const RESOURCES_STRINGS = {
  noResources: 'No resources.',
  templates: 'Resource templates',
  read: 'Read',
  watch: 'Watch',
  updated: 'Updated',
  watchFailed: 'Could not change the watch:',
  contentsOf: 'Contents of',
};

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
