// The explorer's prompts tab: prompts of the shown servers, with their arguments, fetched on
// request. One chunk with the other of the two (resources-prompts.ts), imported when either tab
// is first shown; one `PromptsTab` per explorer holds the arguments typed, the required ones found
// empty, and the prompt got.
import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { GetPromptResult, Prompt, ServerConfig } from '../../core/index.js';
import { renderResult, resultStrings } from '../../internal/result-view.js';
import { REQUIRED_MESSAGE } from '../../internal/required.js';
import { ExplorerPart, idPart, type ExplorerContext, type TabView, type Translate } from './host.js';
import type { ContentsStrings, PromptsStrings } from './strings.js';
import { deepFocus, reveal } from './reveal.js';
import { Suggestions } from './suggest.js';

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const PROMPTS_STRINGS: PromptsStrings = {
  noPrompts: 'No prompts.',
  get: 'Get',
  /** By a required argument left empty when Get was pressed (nothing is sent). */
  required: REQUIRED_MESSAGE,
};
type Tr = Translate<PromptsStrings & ContentsStrings>;

type Argument = NonNullable<Prompt['arguments']>[number];
const argId = (p: Prompt, a: Argument) => `pa-${idPart(p.name)}-${idPart(a.name)}`;

interface Got {
  key: string;
  state: 'loading' | 'done' | 'error';
  result?: GetPromptResult;
  error?: string;
}

export class PromptsTab extends ExplorerPart implements TabView {
  /** The prompt got last (`serverId\0name`). */
  #got?: Got;
  /** The values typed, by `serverId\0prompt\0argument`. */
  #args: Record<string, string> = {};
  /** The required arguments found empty at the last Get (`serverId\0prompt\0argument`). */
  #missing: ReadonlySet<string> = new Set();
  readonly #suggestions: Suggestions;

  constructor(context: ExplorerContext) {
    super(context);
    this.#suggestions = new Suggestions(context.host);
  }

  async #get(serverId: string, prompt: Prompt) {
    const key = `${serverId}\u0000${prompt.name}`;
    const host = this.context.host;
    // a required argument left empty: said by the field, and nothing is sent
    const empty = (prompt.arguments ?? []).filter(
      (a) => a.required && !(this.#args[`${key}\u0000${a.name}`] ?? '').trim(),
    );
    const others = [...this.#missing].filter((k) => !k.startsWith(`${key}\u0000`));
    this.#missing = new Set([...others, ...empty.map((a) => `${key}\u0000${a.name}`)]);
    this.changed();
    if (empty.length) {
      await host.updateComplete;
      host.renderRoot.querySelector<HTMLElement>(`#${argId(prompt, empty[0])}`)?.focus();
      return;
    }
    const before = deepFocus();
    this.#got = { key, state: 'loading' };
    this.changed();
    try {
      const args = Object.fromEntries(
        (prompt.arguments ?? [])
          .map((a) => [a.name, this.#args[`${key}\u0000${a.name}`] ?? ''])
          .filter(([, v]) => v !== ''),
      );
      this.#got = { key, state: 'done', result: await host.hub.client(serverId).getPrompt(prompt.name, args) };
    } catch (e) {
      this.#got = { key, state: 'error', error: (e as Error).message };
    }
    this.changed();
    await reveal(host, '#prompt-answer', before);
  }

  /** The values typed for a prompt's arguments, by name. */
  #valuesOf(key: string, p: Prompt) {
    return Object.fromEntries((p.arguments ?? []).map((a) => [a.name, this.#args[`${key}\u0000${a.name}`] ?? '']));
  }

  #renderArgument(serverId: string, p: Prompt, a: Argument, tr: Tr) {
    const key = `${serverId}\u0000${p.name}`;
    const id = argId(p, a);
    // the server's suggestions, when it offers completions (suggest.ts)
    const suggest = this.#suggestions.field(id, {
      serverId,
      ref: { type: 'ref/prompt', name: p.name },
      name: a.name,
      context: () => this.#valuesOf(key, p),
    });
    const help = `pad-${idPart(p.name)}-${idPart(a.name)}`;
    const problem = `pae-${idPart(p.name)}-${idPart(a.name)}`;
    const field = `${key}\u0000${a.name}`;
    const isMissing = this.#missing.has(field);
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
        .value=${live(this.#args[field] ?? '')}
        @focus=${suggest?.onFocus}
        @input=${(e: Event) => {
          const value = (e.target as HTMLInputElement).value;
          if (isMissing && value.trim()) this.#missing = new Set([...this.#missing].filter((k) => k !== field));
          this.#args = { ...this.#args, [field]: value };
          this.changed();
          suggest?.onInput(e);
        }}
      />
      ${suggest?.datalist ?? nothing}
      ${isMissing ? html`<span class="invalid" id=${problem}>${tr('required')}</span>` : nothing}
      ${a.description ? html`<span class="muted" id=${help}>${a.description}</span>` : nothing}
    </div>`;
  }

  /** The prompt got (or why not), in a labelled region that takes focus once it is in (reveal.ts). */
  #renderGot(tr: Tr, prompts: [ServerConfig, Prompt][]) {
    const current = this.#got;
    const prompt = prompts.find(([s, p]) => `${s.id}\u0000${p.name}` === current?.key)?.[1];
    if (!current || !prompt) return nothing;
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

  render(tr: Tr) {
    const servers = this.context.shownServers();
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
              ${(p.arguments ?? []).map((a) => this.#renderArgument(s.id, p, a, tr))}
              <button
                data-action="get-prompt"
                data-prompt=${p.name}
                aria-label=${`${tr('get')} ${p.name}`}
                @click=${() => void this.#get(s.id, p)}
              >
                ${tr('get')}
              </button>
            </li>`,
        )}
      </ul>
      <div>${this.#renderGot(tr, prompts)}</div>
    </div>`;
  }
}

/** Rules only this tab's markup needs. */
export const promptsStyles = css`
  .message {
    border-left: 3px solid var(--_border);
    padding-left: 0.5rem;
  }
`;
