// Who the shown servers say they are: icon, title, version, description, website, the protocol
// revision in words, and the instructions the server gave for the assistant (readable here, as
// the server's text). One server (`server-id`): a header; all: one disclosure listing each.
import { html, nothing } from 'lit';
import type { ServerCatalogue, ServerConfig } from '../../core/index.js';
import {
  connectionRevision,
  serverDescription,
  serverIcon,
  serverTitle,
  serverWebsite,
} from '../../internal/server-identity.js';
import type { ExplorerContext, Translate } from './host.js';
import type { STRINGS } from './strings.js';

type Tr = Translate<typeof STRINGS>;

function renderServer(context: ExplorerContext, tr: Tr, server: ServerConfig, cat: ServerCatalogue) {
  const info = cat.serverInfo;
  const title = serverTitle(info);
  const description = serverDescription(info);
  const website = serverWebsite(info);
  const revision = connectionRevision(context.host.hub.status(server.id), cat, tr);
  return html`<div class="about-server" data-server=${server.id}>
    <div class="about-head">
      ${serverIcon(info)}<strong class="one-line" title=${server.name}>${server.name}</strong>
      ${title && title !== server.name ? html`<span class="muted one-line" title=${title}>${title}</span>` : nothing}
    </div>
    ${description ? html`<p class="about-description">${description}</p>` : nothing}
    ${
      revision || website
        ? html`<p class="muted about-facts">
            ${revision ? html`<span part="revision">${tr('protocol')}: ${revision}</span>` : nothing}
            ${website ? html`<span>${tr('website')}: <a href=${website} target="_blank" rel="noopener noreferrer">${website}</a></span>` : nothing}
          </p>`
        : nothing
    }
    ${
      cat.instructions?.trim()
        ? html`<details class="instructions-box" part="instructions">
            <summary>${tr('instructions')}</summary>
            <!-- as a property: in pre-wrap, the template's own whitespace would show -->
            <div
              class="instructions"
              tabindex="0"
              role="region"
              aria-label=${`${tr('instructions')}: ${server.name}`}
              .textContent=${cat.instructions}
            ></div>
          </details>`
        : nothing
    }
  </div>`;
}

/** The shown servers' identities above the tabs. */
export function renderAbout(context: ExplorerContext, tr: Tr) {
  const shown = context.shownServers();
  if (!shown.length) return nothing;
  if (context.host.serverId)
    return html`<section class="about" part="about">
      ${shown.map(({ server, catalogue }) => renderServer(context, tr, server, catalogue))}
    </section>`;
  return html`<details class="about" part="about">
    <summary>${tr('aboutServers')} (${shown.length})</summary>
    ${shown.map(({ server, catalogue }) => renderServer(context, tr, server, catalogue))}
  </details>`;
}
