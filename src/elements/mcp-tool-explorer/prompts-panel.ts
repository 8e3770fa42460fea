// The explorer's prompts tab: prompts of the shown servers, with their arguments, fetched on
// request. One chunk with the other of the two (resources-prompts.ts),
// imported when either tab is first shown.
import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Prompt, ServerConfig } from '../../core/index.js';
import { renderResult, resultStrings } from '../../internal/result-view.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { idPart, type Translate } from './strings.js';
import { deepFocus, reveal } from './reveal.js';

async function getPrompt(el: McpToolExplorerElement, serverId: string, prompt: Prompt) {
  const key = `${serverId}\u0000${prompt.name}`;
  const before = deepFocus();
  el._prompt = { key, state: 'loading' };
  try {
    const args = Object.fromEntries(
      (prompt.arguments ?? [])
        .map((a) => [a.name, el._promptArgs[`${key}\u0000${a.name}`] ?? ''])
        .filter(([, v]) => v !== ''),
    );
    el._prompt = { key, state: 'done', result: await el.hub.client(serverId).getPrompt(prompt.name, args) };
  } catch (e) {
    el._prompt = { key, state: 'error', error: (e as Error).message };
  }
  await reveal(el, '#prompt-answer', before);
}

function renderArgument(
  el: McpToolExplorerElement,
  key: string,
  p: Prompt,
  a: NonNullable<Prompt['arguments']>[number],
) {
  const id = `pa-${idPart(p.name)}-${idPart(a.name)}`;
  const help = `pad-${idPart(p.name)}-${idPart(a.name)}`;
  return html`<div class="field">
    <label for=${id}>${a.name}${a.required ? html` <span aria-hidden="true">*</span>` : nothing}</label>
    <input
      id=${id}
      data-prompt-arg=${a.name}
      ?required=${!!a.required}
      aria-describedby=${a.description ? help : nothing}
      .value=${live(el._promptArgs[`${key}\u0000${a.name}`] ?? '')}
      @input=${(e: Event) =>
        (el._promptArgs = { ...el._promptArgs, [`${key}\u0000${a.name}`]: (e.target as HTMLInputElement).value })}
    />
    ${a.description ? html`<span class="muted" id=${help}>${a.description}</span>` : nothing}
  </div>`;
}

/** The prompt got (or why not), in a labelled region that takes focus once it is in (reveal.ts). */
function renderPromptResult(el: McpToolExplorerElement, tr: Translate, prompts: [ServerConfig, Prompt][]) {
  const current = el._prompt;
  const prompt = prompts.find(([s, p]) => `${s.id}\u0000${p.name}` === current?.key)?.[1];
  if (!current || current.state === 'idle' || !prompt) return nothing;
  const result = current.result;
  return html`<section id="prompt-answer" class="answer" tabindex="-1" aria-labelledby="prompt-answer-title">
    <h4 id="prompt-answer-title">${prompt.title ?? prompt.name}</h4>
    ${current.state === 'loading' ? html`<p class="muted" role="status">${tr('get')}…</p>` : nothing}
    ${current.state === 'error' ? html`<p class="error-text" role="alert">${current.error}</p>` : nothing}
    ${result?.description ? html`<p class="muted">${result.description}</p>` : nothing}
    <div aria-live="polite">
      ${(result?.messages ?? []).map(
        (m) =>
          html`<div class="message">
            <strong>${m.role}</strong>${renderResult({ content: [m.content] as never }, resultStrings(tr))}
          </div>`,
      )}
    </div>
  </section>`;
}

export function renderPrompts(el: McpToolExplorerElement, tr: Translate) {
  const servers = el._shownServers();
  const prompts = servers.flatMap(({ server, catalogue }) =>
    catalogue.prompts.map((p) => [server, p] as [ServerConfig, Prompt]),
  );
  if (prompts.length === 0)
    return html`<p class="muted">${tr(servers.some((x) => x.catalogue.partial) ? 'listing' : 'noPrompts')}</p>`;
  return html`<div class="layout">
    <ul class="plain">
      ${prompts.map(([s, p]) => {
        const key = `${s.id}\u0000${p.name}`;
        return html`<li>
          <strong>${p.title ?? p.name}</strong
          >${p.description ? html`<div class="muted">${p.description}</div>` : nothing}
          ${(p.arguments ?? []).map((a) => renderArgument(el, key, p, a))}
          <button
            data-action="get-prompt"
            data-prompt=${p.name}
            aria-label=${`${tr('get')} ${p.name}`}
            @click=${() => void getPrompt(el, s.id, p)}
          >
            ${tr('get')}
          </button>
        </li>`;
      })}
    </ul>
    <div>${renderPromptResult(el, tr, prompts)}</div>
  </div>`;
}

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const PROMPTS_STRINGS = {
  noPrompts: 'No prompts.',
  get: 'Get',
};

/** Rules only this tab's markup needs. */
export const promptsStyles = css`
  .message {
    border-left: 3px solid var(--_border);
    padding-left: 0.5rem;
  }
`;
