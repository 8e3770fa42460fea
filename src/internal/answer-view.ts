// What the answer views share: the base element (hub, strings, theme, the request's server name),
// their styles, and moving focus to a new request without taking it from someone typing.
import { css, html, nothing, type PropertyValues } from 'lit';
import { ANSWER_STRINGS, fill, type AnswerStrings } from './answer-strings.js';
import { McpElement } from './mcp-element.js';

/** The element that has focus, looking inside open shadow roots. */
function deepActiveElement(): Element | null {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** True when the user is typing somewhere (a request arriving then must not take focus). */
export function userIsTyping(): boolean {
  const el = deepActiveElement();
  if (!el || el === document.body) return false;
  return (
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement ||
    (el instanceof HTMLInputElement && !['button', 'submit', 'checkbox', 'radio'].includes(el.type)) ||
    (el as HTMLElement).isContentEditable
  );
}

/**
 * Base of the internal views (`<mcp-elicitation-view>`, `<mcp-sampling-view>`): a record, the
 * name of the server that sent it, and focus moved to the decision when one starts waiting.
 */
export abstract class AnswerView extends McpElement<AnswerStrings> {
  static override properties = {
    ...McpElement.properties,
    serverName: { attribute: false },
  };
  /** The name of the server that asks (shown to the user). */
  declare serverName: string;
  protected override defaultStrings = ANSWER_STRINGS;
  #focusedFor?: string;

  constructor() {
    super();
    this.serverName = '';
  }

  /** The key of the decision the view waits for (id + status), or undefined when none. */
  protected abstract waitingFor(): string | undefined;

  /** A string with `{server}` and the given placeholders filled. */
  protected f(key: keyof AnswerStrings, values: Record<string, string | number> = {}): string {
    return fill(this.t(key), { server: this.serverName, ...values });
  }

  /** The request's box: a focusable group named by its title, where Escape means no. */
  protected section(title: string, body: unknown, onKeydown: (e: KeyboardEvent) => void, status?: string) {
    return html`<section
      class="request"
      data-request
      data-status=${status ?? nothing}
      tabindex="-1"
      role="group"
      aria-labelledby="title"
      @keydown=${onKeydown}
    >
      <p class="title" id="title">${title}</p>
      ${body}
    </section>`;
  }

  /** The hub's refusal of the last answer, announced. */
  protected errorLine(message: string) {
    return message ? html`<p class="error-text" role="alert">${message}</p>` : nothing;
  }

  override updated(changed: PropertyValues<this>) {
    super.updated(changed);
    const waiting = this.waitingFor();
    if (waiting && waiting !== this.#focusedFor) {
      this.#focusedFor = waiting;
      if (!userIsTyping()) (this.renderRoot.querySelector('[data-request]') as HTMLElement | null)?.focus();
    }
  }
}

export const answerStyles = css`
  .request {
    display: grid;
    gap: 0.5rem;
    border: 1px solid var(--_warning);
    border-radius: var(--_radius);
    padding: 0.6rem 0.8rem;
    background: var(--_bg);
    outline: none;
  }
  .request:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .title {
    font-weight: 600;
    margin: 0;
    overflow-wrap: anywhere;
  }
  .message {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  p {
    margin: 0;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
  }
  .small {
    font-size: 0.85em;
  }
  .done {
    margin: 0;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
`;
