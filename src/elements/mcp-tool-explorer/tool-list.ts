// The explorer's tool list: search box, count, and a hand-virtualised listbox (fixed-height
// rows, overscan) with keyboard navigation. Rows are positioned through CSSOM (cssProps), not
// `style` attributes, so a page whose CSP forbids inline styles still scrolls the list.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { cssProps } from '../../internal/css-props.js';
import type { Tool } from '../../core/index.js';
import { RASTER } from '../../internal/server-identity.js';
import type { Translate } from './host.js';
import type { ToolsState } from './tools-state.js';
import type { STRINGS } from './strings.js';

type Tr = Translate<typeof STRINGS>;

export const ROW_HEIGHT = 56;
const OVERSCAN = 6;
const VIEWPORT_ROWS = 24;

function onListKey(t: ToolsState, ev: KeyboardEvent) {
  const list = t.filtered;
  if (!list.length) return;
  let next: number;
  if (ev.key === 'ArrowDown') next = Math.min(list.length - 1, t.active + 1);
  else if (ev.key === 'ArrowUp') next = Math.max(0, t.active - 1);
  else if (ev.key === 'Home') next = 0;
  else if (ev.key === 'End') next = list.length - 1;
  else if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    t.select(list[t.active]);
    return;
  } else return;
  ev.preventDefault();
  const vp = ev.currentTarget as HTMLElement;
  const top = next * ROW_HEIGHT;
  if (top < vp.scrollTop) vp.scrollTop = top;
  else if (top + ROW_HEIGHT > vp.scrollTop + vp.clientHeight) vp.scrollTop = top + ROW_HEIGHT - vp.clientHeight;
  t.set({ active: next, scroll: vp.scrollTop });
}

export function icon(tool: Tool) {
  // only inline raster images: a remote icon URL would be fetched without the user seeing it
  const found = (tool.icons ?? []).find((i) => RASTER.test(i.src));
  return found ? html`<img class="icon" src=${found.src} alt="" />` : nothing;
}

export function renderToolList(t: ToolsState, tr: Tr) {
  const list = t.filtered;
  const first = Math.max(0, Math.floor(t.scroll / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(list.length, first + VIEWPORT_ROWS + OVERSCAN * 2);
  const active = list[t.active] ? `row-${t.active}` : undefined;
  const { host } = t.context;
  return html`<div>
    <input
      type="search"
      part="search"
      aria-label=${tr('search')}
      placeholder=${tr('search')}
      .value=${live(t.query)}
      @input=${(e: Event) => {
        t.set({ query: (e.target as HTMLInputElement).value, active: 0, scroll: 0 });
        const vp = host.renderRoot.querySelector('.viewport') as HTMLElement | null;
        if (vp) vp.scrollTop = 0;
      }}
    />
    <p class="muted" role="status" aria-live="polite">${list.length} ${tr(list.length === 1 ? 'countOne' : 'count')}</p>
    ${
      list.length === 0
        ? html`<p class="muted">${t.entries.length === 0 ? tr('noTools') : tr('noMatch')}</p>`
        : html`<div
            class="viewport"
            part="list"
            role="listbox"
            tabindex="0"
            aria-label=${tr('tools')}
            aria-activedescendant=${active ?? nothing}
            @scroll=${(e: Event) => t.set({ scroll: (e.target as HTMLElement).scrollTop })}
            @keydown=${(e: KeyboardEvent) => onListKey(t, e)}
          >
            <div class="spacer" ${cssProps({ height: `${list.length * ROW_HEIGHT}px` })}>
              ${list.slice(first, last).map((e, i) => {
                const index = first + i;
                return html`<div
                  class="row ${index === t.active ? 'active' : ''}"
                  id=${`row-${index}`}
                  role="option"
                  aria-selected=${e.key === t.selected ? 'true' : 'false'}
                  aria-setsize=${list.length}
                  aria-posinset=${index + 1}
                  ${cssProps({ top: `${index * ROW_HEIGHT}px` })}
                  data-tool=${e.tool.name}
                  @click=${() => {
                    t.set({ active: index });
                    t.select(e);
                  }}
                >
                  <div class="title" title=${e.tool.title ? `${e.tool.title} (${e.tool.name})` : e.tool.name}>
                    ${icon(e.tool)}<span class="name">${e.tool.title ?? e.tool.name}</span
                    >${host.serverId ? nothing : html`<span class="muted server">· ${e.serverName}</span>`}
                  </div>
                  <div class="desc">${(e.tool.description ?? '').slice(0, 200)}</div>
                </div>`;
              })}
            </div>
          </div>`
    }
  </div>`;
}
