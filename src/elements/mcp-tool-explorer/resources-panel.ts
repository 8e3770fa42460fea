// The explorer's resources tab: resources and resource templates of the shown servers, read on request.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  expandTemplate,
  templateParams,
  type Resource,
  type ResourceTemplate,
  type ServerConfig,
} from '../../core/index.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { idPart, RASTER, type Translate } from './strings.js';

async function read(el: McpToolExplorerElement, serverId: string, uri: () => string) {
  let target = '';
  try {
    target = uri();
    el._resource = { uri: target, state: 'loading' };
    el._resource = { uri: target, state: 'done', result: await el.hub.client(serverId).readResource(target) };
  } catch (e) {
    el._resource = { uri: target, state: 'error', error: (e as Error).message };
  }
}

function renderContents(el: McpToolExplorerElement, tr: Translate) {
  const r = el._resource;
  if (!r) return nothing;
  if (r.state === 'loading') return html`<p class="muted" role="status">${tr('read')}…</p>`;
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
            <code>${item.uri}</code> — ${item.mimeType ?? tr('binary')},
            ${Math.round(((item.blob?.length ?? 0) * 3) / 4)} ${tr('bytes')}
          </p>`;
    })}
  </div>`;
}

function renderResource(el: McpToolExplorerElement, s: ServerConfig, r: Resource, tr: Translate) {
  return html`<li>
    <strong>${r.title ?? r.name}</strong> <span class="muted">${r.mimeType ?? ''}</span><br /><code>${r.uri}</code>
    ${r.description ? html`<div class="muted">${r.description}</div>` : nothing}
    <div>
      <button
        data-action="read"
        data-uri=${r.uri}
        aria-label=${`${tr('read')} ${r.name}`}
        @click=${() => void read(el, s.id, () => r.uri)}
      >
        ${tr('read')}
      </button>
    </div>
  </li>`;
}

function renderTemplate(el: McpToolExplorerElement, s: ServerConfig, t: ResourceTemplate, tr: Translate) {
  const key = `${s.id}\u0000${t.uriTemplate}`;
  const values = el._templateValues[key] ?? {};
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
            @input=${(e: Event) =>
              (el._templateValues = {
                ...el._templateValues,
                [key]: { ...values, [p]: (e.target as HTMLInputElement).value },
              })}
          />
        </div>`,
    )}
    <button
      data-action="read-template"
      aria-label=${`${tr('read')} ${t.name}`}
      @click=${() => void read(el, s.id, () => expandTemplate(t.uriTemplate, values))}
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
          ? html`<p class="muted">${tr('noResources')}</p>`
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
