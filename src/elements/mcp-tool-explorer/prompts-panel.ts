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
import { REQUIRED_MESSAGE } from '../../internal/required.js';
import { suggestionsOf } from './suggest.js';

/** What the tab holds per explorer: the required arguments found empty at the last Get (`key\0arg`). */
const missingOf = new WeakMap<McpToolExplorerElement, ReadonlySet<string>>();
const missing = (el: McpToolExplorerElement) => missingOf.get(el) ?? new Set<string>();

async function getPrompt(el: McpToolExplorerElement, serverId: string, prompt: Prompt) {
  const key = `${serverId}\u0000${prompt.name}`;
  // a required argument left empty: said by the field, and nothing is sent
  const empty = (prompt.arguments ?? []).filter(
    (a) => a.required && !(el._promptArgs[`${key}\u0000${a.name}`] ?? '').trim(),
  );
  const others = [...missing(el)].filter((k) => !k.startsWith(`${key}\u0000`));
  missingOf.set(el, new Set([...others, ...empty.map((a) => `${key}\u0000${a.name}`)]));
  if (empty.length) {
    el.requestUpdate();
    await el.updateComplete;
    el.renderRoot.querySelector<HTMLElement>(`#${argId(prompt, empty[0])}`)?.focus();
    return;
  }
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

type Argument = NonNullable<Prompt['arguments']>[number];
const argId = (p: Prompt, a: Argument) => `pa-${idPart(p.name)}-${idPart(a.name)}`;

/** The values typed for a prompt's arguments, by name. */
const valuesOf = (el: McpToolExplorerElement, key: string, p: Prompt) =>
  Object.fromEntries((p.arguments ?? []).map((a) => [a.name, el._promptArgs[`${key}\u0000${a.name}`] ?? '']));

function renderArgument(el: McpToolExplorerElement, serverId: string, p: Prompt, a: Argument, tr: Translate) {
  const key = `${serverId}\u0000${p.name}`;
  const id = argId(p, a);
  // the server's suggestions, when it offers completions (suggest.ts)
  const suggest = suggestionsOf(el).field(id, {
    serverId,
    ref: { type: 'ref/prompt', name: p.name },
    name: a.name,
    context: () => valuesOf(el, key, p),
  });
  const help = `pad-${idPart(p.name)}-${idPart(a.name)}`;
  const problem = `pae-${idPart(p.name)}-${idPart(a.name)}`;
  const field = `${key}\u0000${a.name}`;
  const isMissing = missing(el).has(field);
  const describedBy = [isMissing ? problem : '', a.description ? help : ''].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for=${id}>${a.name}${a.required ? html` <span aria-hidden="true">*</span>` : nothing}</label>
    <input
      id=${id}
      data-prompt-arg=${a.name}
      ?required=${!!a.required}
      aria-invalid=${isMissing ? 'true' : nothing}
      aria-describedby=${describedBy || nothing}
      list=${suggest?.list ?? nothing}
      autocomplete=${suggest ? 'off' : nothing}
      .value=${live(el._promptArgs[field] ?? '')}
      @focus=${suggest?.onFocus}
      @input=${(e: Event) => {
        const value = (e.target as HTMLInputElement).value;
        if (isMissing && value.trim()) missingOf.set(el, new Set([...missing(el)].filter((k) => k !== field)));
        el._promptArgs = { ...el._promptArgs, [field]: value };
        suggest?.onInput(e);
      }}
    />
    ${suggest?.datalist ?? nothing}
    ${isMissing ? html`<span class="invalid" id=${problem}>${tr('required')}</span>` : nothing}
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
      ${prompts.map(
        ([s, p]) =>
          html`<li>
            <strong>${p.title ?? p.name}</strong
            >${p.description ? html`<div class="muted">${p.description}</div>` : nothing}
            ${(p.arguments ?? []).map((a) => renderArgument(el, s.id, p, a, tr))}
            <button
              data-action="get-prompt"
              data-prompt=${p.name}
              aria-label=${`${tr('get')} ${p.name}`}
              @click=${() => void getPrompt(el, s.id, p)}
            >
              ${tr('get')}
            </button>
          </li>`,
      )}
    </ul>
    <div>${renderPromptResult(el, tr, prompts)}</div>
  </div>`;
}

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const PROMPTS_STRINGS = {
  noPrompts: 'No prompts.',
  get: 'Get',
  /** By a required argument left empty when Get was pressed (nothing is sent). */
  required: REQUIRED_MESSAGE,
};

/** Rules only this tab's markup needs. */
export const promptsStyles = css`
  .message {
    border-left: 3px solid var(--_border);
    padding-left: 0.5rem;
  }
`;
