// One directory entry: text only (names and descriptions as text nodes), an icon only when it is
// a raster image, links only https with rel="noopener noreferrer", and plain badges.
import { html, nothing } from 'lit';
import type { RegistryEntry } from '../../core/registry/index.js';
import type { McpServerDirectoryStrings } from './strings.js';

type T = <K extends keyof McpServerDirectoryStrings>(key: K) => McpServerDirectoryStrings[K];

function day(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
}

/** An https remote (a loopback http one counts too: the page's own machine). */
export function worksHere(entry: RegistryEntry): boolean {
  return entry.remotes.length > 0;
}

export function renderEntry(
  entry: RegistryEntry,
  index: number,
  t: T,
  actions: { add: () => void; relay: () => void; relayOpen: boolean; relayPanel: unknown },
) {
  const transports = [...new Set([...entry.remotes.map((r) => r.type), ...entry.packages.map(() => 'stdio')])];
  const published = day(entry.publishedAt);
  const updated = day(entry.updatedAt);
  const id = `entry-${index}`;
  return html`<li class="entry" part="entry" data-name=${entry.name} aria-labelledby=${id}>
    <div class="head">
      ${
        entry.icon
          ? html`<img
              class="icon"
              part="icon"
              src=${entry.icon}
              alt=""
              width="32"
              height="32"
              referrerpolicy="no-referrer"
            />`
          : nothing
      }
      <div>
        <h3 id=${id} class="title">${entry.title}</h3>
        ${entry.title !== entry.name ? html`<code class="muted">${entry.name}</code>` : nothing}
      </div>
    </div>
    <p class="desc" part="description">${entry.description}</p>
    <p class="badges">
      ${worksHere(entry) ? html`<span class="badge" data-badge="works-here">${t('worksHere')}</span>` : nothing}
      ${!worksHere(entry) && entry.packages.length ? html`<span class="badge" data-badge="needs-relay">${t('needsRelay')}</span>` : nothing}
      ${
        entry.status === 'deprecated'
          ? html`<span class="badge warn" data-badge="deprecated">${t('deprecated')}</span>${
                entry.statusMessage ? html` <span class="muted">${entry.statusMessage}</span>` : nothing
              }`
          : nothing
      }
    </p>
    <p class="muted meta">
      ${t('version')}
      ${entry.version}${published ? ` · ${t('published')} ${published}` : ''}${
        updated && updated !== published ? ` · ${t('updated')} ${updated}` : ''
      }
      · ${t('transports')}: ${transports.join(', ') || '—'}
    </p>
    <p class="row">
      ${
        entry.websiteUrl
          ? html`<a href=${entry.websiteUrl} target="_blank" rel="noopener noreferrer">${t('website')}</a>`
          : nothing
      }
      ${
        entry.repositoryUrl
          ? html`<a href=${entry.repositoryUrl} target="_blank" rel="noopener noreferrer">${t('repository')}</a>`
          : nothing
      }
      <span class="spacer"></span>
      ${
        worksHere(entry)
          ? html`<button type="button" class="primary" data-action="add" @click=${actions.add} aria-describedby=${id}>
              ${t('add')}
            </button>`
          : entry.packages.length
            ? html`<button
                type="button"
                data-action="relay"
                aria-expanded=${actions.relayOpen ? 'true' : 'false'}
                @click=${actions.relay}
              >
                ${actions.relayOpen ? t('hideRelay') : t('showRelay')}
              </button>`
            : nothing
      }
    </p>
    ${actions.relayOpen ? actions.relayPanel : nothing}
  </li>`;
}
