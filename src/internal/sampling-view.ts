// <mcp-sampling-view> (internal): one sampling request with its two human checkpoints — what the
// server asks (messages as text, system prompt, max tokens) with Approve / Deny, then the
// model's answer, editable, with Send / Don't send. Decisions go to `hub.respondToSampling`.
import { css, html, nothing, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import { McpConfigError, type SamplingRecord } from '../core/index.js';
import { outcomeKey } from './answer-list.js';
import { answerStyles, AnswerView } from './answer-view.js';
import { baseStyles } from './mcp-element.js';

export class McpSamplingView extends AnswerView {
  static override properties = {
    ...AnswerView.properties,
    record: { attribute: false },
    _draft: { state: true },
    _error: { state: true },
  };
  static override styles = [
    baseStyles,
    answerStyles,
    css`
      .messages {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.3rem;
      }
      .role {
        font-weight: 600;
        font-size: 0.85em;
        color: var(--_muted);
      }
      .meta {
        display: flex;
        gap: 0.3rem 1rem;
        flex-wrap: wrap;
        margin: 0;
      }
      .meta dt {
        color: var(--_muted);
      }
      .meta dd {
        margin: 0;
        font-weight: 600;
      }
      textarea {
        width: 100%;
        min-height: 6rem;
        resize: vertical;
      }
      progress {
        width: 100%;
      }
      details > summary {
        cursor: pointer;
        color: var(--_muted);
      }
    `,
  ];
  /** The sampling request shown. */
  declare record?: SamplingRecord;
  /** The answer as the user edited it (memory only). */
  declare _draft?: string;
  declare _error: string;
  #forId?: string;

  constructor() {
    super();
    this._error = '';
  }

  protected waitingFor() {
    const r = this.record;
    return r && (r.status === 'awaiting-approval' || r.status === 'awaiting-review')
      ? `${r.id}:${r.status}`
      : undefined;
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('record') && this.record?.id !== this.#forId) {
      this.#forId = this.record?.id;
      this._draft = undefined;
      this._error = '';
    }
    if (this.record?.status !== 'awaiting-review') this._draft = undefined;
  }

  #respond(decision: { approve: boolean } | { send: boolean; text?: string }) {
    const r = this.record;
    if (!r) return;
    try {
      this.hub.respondToSampling(r.id, decision);
      this._error = '';
    } catch (e) {
      this._error = e instanceof McpConfigError ? e.issues.map((i) => i.message).join(' ') : (e as Error).message;
    }
  }

  #send(send: boolean) {
    const r = this.record;
    const edited = this._draft !== undefined && this._draft !== r?.answer?.text;
    this.#respond(send && edited ? { send, text: this._draft } : { send });
  }

  #onKeydown(e: KeyboardEvent) {
    // Escape says no at either checkpoint, except inside the answer being edited
    if (e.key !== 'Escape' || (e.composedPath()[0] as Element)?.localName === 'textarea') return;
    const status = this.record?.status;
    if (status !== 'awaiting-approval' && status !== 'awaiting-review') return;
    e.preventDefault();
    if (status === 'awaiting-approval') this.#respond({ approve: false });
    else this.#send(false);
  }

  #prompt(r: SamplingRecord) {
    return html`<dl class="meta">
        <dt>${this.t('maxTokens')}</dt>
        <dd>${r.maxTokens}</dd>
      </dl>
      ${
        r.systemPrompt
          ? html`<details part="system-prompt">
              <summary>${this.t('systemPrompt')}</summary>
              <pre tabindex="0">${r.systemPrompt}</pre>
            </details>`
          : nothing
      }
      <ol class="messages" part="messages">
        ${r.messages.map(
          (m) =>
            html`<li>
              <span class="role">${m.role === 'assistant' ? this.t('roleAssistant') : this.t('roleUser')}</span>
              <pre tabindex="0">${m.text}</pre>
            </li>`,
        )}
      </ol>`;
  }

  #done(r: SamplingRecord) {
    if (r.status === 'failed')
      // the hub's message already says what failed ("The model failed: …")
      return html`<p class="done error-text" part="done" data-status=${r.status}>
        ${r.error ?? this.t('samplingFailed')}
      </p>`;
    return html`<p class="done" part="done" data-status=${r.status}>${this.f(outcomeKey(r))}</p>`;
  }

  override render() {
    const r = this.record;
    if (!r) return nothing;
    if (!['awaiting-approval', 'generating', 'awaiting-review'].includes(r.status)) return this.#done(r);
    const error = this.errorLine(this._error);
    let body;
    if (r.status === 'awaiting-approval')
      body = html`${this.#prompt(r)}
        <p class="muted small">${this.t('samplingExplain')}</p>
        ${error}
        <div class="actions" part="actions">
          <button class="primary" data-action="approve" @click=${() => this.#respond({ approve: true })}>
            ${this.t('approve')}
          </button>
          <button class="danger" data-action="deny" @click=${() => this.#respond({ approve: false })}>
            ${this.t('denySampling')}
          </button>
        </div>`;
    else if (r.status === 'generating')
      body = html`<details part="prompt">
          <summary>${this.f('samplingPrompt')}</summary>
          ${this.#prompt(r)}
        </details>
        <p role="status">${this.t('generating')}</p>
        <progress aria-label=${this.t('generating')}></progress>`;
    else
      body = html`<details part="prompt">
          <summary>${this.f('samplingPrompt')}</summary>
          ${this.#prompt(r)}
        </details>
        <label for="answer">${this.f('reviewLabel', { model: r.answer?.model ?? '' })}</label>
        <textarea
          id="answer"
          part="answer"
          .value=${live(this._draft ?? r.answer?.text ?? '')}
          @input=${(e: Event) => (this._draft = (e.target as HTMLTextAreaElement).value)}
        ></textarea>
        ${error}
        <div class="actions" part="actions">
          <button class="primary" data-action="send" @click=${() => this.#send(true)}>${this.t('send')}</button>
          <button class="danger" data-action="dont-send" @click=${() => this.#send(false)}>
            ${this.t('dontSend')}
          </button>
        </div>`;
    return this.section(this.f('samplingTitle'), body, this.#onKeydown, r.status);
  }
}
