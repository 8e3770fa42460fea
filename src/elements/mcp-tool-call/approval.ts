// The card's approval box and the decision taken in it: the question in plain words, what the tool
// does, with which details, the warnings its annotations (or their absence) call for, and Allow
// once / Always allow / Deny. A controller: it keeps its own state (why a decision could not be
// taken) and asks its card to render; the card only places `render()` and forwards Escape.
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { McpHub, ToolCallRecord } from '../../core/index.js';
import { LONG_VALUE, MAX_DESCRIPTION, readable } from './call-text.js';
import type { McpToolCallStrings } from './strings.js';

/** The card as the approval box sees it. */
export type ApprovalHost = ReactiveControllerHost &
  HTMLElement & {
    readonly hub: McpHub;
    readonly record: ToolCallRecord | undefined;
    /** After the decision, focus this (a selector in the card's document, or an element). */
    readonly returnFocus?: string | HTMLElement;
  };

type Text = (key: keyof McpToolCallStrings) => string;

export class ApprovalController implements ReactiveController {
  readonly #host: ApprovalHost;
  readonly #t: Text;
  /** Why Allow or Deny could not be taken (shown in the box). */
  #error?: string;

  constructor(host: ApprovalHost, t: Text) {
    this.#host = host;
    this.#t = t;
    host.addController(this);
  }

  /** An old refusal goes with the question it was about. */
  hostUpdate() {
    if (this.#host.record?.status !== 'awaiting-approval') this.#error = undefined;
  }

  approve(always: boolean) {
    const r = this.#host.record;
    if (r) this.#decide(() => this.#host.hub.calls.approve(r.id, { always }));
  }

  deny() {
    const r = this.#host.record;
    if (r) this.#decide(() => this.#host.hub.calls.deny(r.id));
  }

  /** A decision the hub cannot take (e.g. the call waits for it in another tab) is said in the box. */
  #decide(decide: () => void) {
    try {
      decide();
      this.#error = undefined;
      this.#focusBack();
    } catch (e) {
      this.#error = (e as Error).message;
      this.#host.requestUpdate();
    }
  }

  // the approval box goes away with the decision: focus would fall to the page's start
  #focusBack() {
    const to = this.#host.returnFocus;
    if (!to) return;
    const root = this.#host.getRootNode() as Document | ShadowRoot;
    const target = typeof to === 'string' ? root.querySelector<HTMLElement>(to) : to;
    target?.focus();
  }

  #warnings(record: ToolCallRecord): string[] {
    const hints = record.annotations;
    const out: string[] = [];
    // without annotations the spec's defaults apply: may be destructive, open world
    if (hints?.readOnlyHint === true) out.push(this.#t('readOnly'));
    else out.push(hints?.destructiveHint === false ? this.#t('mayChangeSoft') : this.#t('mayChange'));
    if (hints?.openWorldHint !== false) out.push(this.#t('openWorld'));
    return out;
  }

  /** What is asked, in words a person reads: the tool, what it does, with which details. */
  render(r: ToolCallRecord) {
    const hub = this.#host.hub;
    const tool = hub.catalogue(r.serverId)?.tools.find((t) => t.name === r.tool);
    let what = tool?.description?.trim() ?? '';
    if (what.length > MAX_DESCRIPTION) what = `${what.slice(0, MAX_DESCRIPTION)}…`;
    const props = (tool?.inputSchema?.properties ?? {}) as Record<string, { title?: string }>;
    const entries = Object.entries(r.arguments);
    const question = this.#t('approvalQuestion')
      .replace('{tool}', `“${r.toolTitle ?? r.tool}”`)
      .replace('{server}', r.serverName);
    return html`<div class="approval" part="approval" role="group" tabindex="-1" aria-labelledby="ask">
      <p id="ask" class="ask">${question}</p>
      ${what ? html`<p class="what"><span class="label">${this.#t('approvalWhat')}</span> ${what}</p>` : nothing}
      ${
        entries.length
          ? html`<div class="with">
              <span class="label">${this.#t('approvalWith')}</span>
              <dl>
                ${entries.map(
                  ([k, v]) =>
                    html`<dt>${this.#key(k, props[k]?.title)}</dt>
                      <dd tabindex=${readable(v).text.length > LONG_VALUE ? '0' : nothing}>${this.#value(v)}</dd>`,
                )}
              </dl>
            </div>`
          : html`<p class="with">${this.#t('approvalNoArgs')}</p>`
      }
      <ul class="warnings">
        ${this.#warnings(r).map((w) => html`<li>${w}</li>`)}
      </ul>
      <div class="actions" part="actions">
        <button class="primary" data-action="allow-once" @click=${() => this.approve(false)}>
          ${this.#t('allowOnce')}
        </button>
        <button data-action="always-allow" aria-describedby="always-note" @click=${() => this.approve(true)}>
          ${this.#t('alwaysAllow')}
        </button>
        <button class="danger" data-action="deny" @click=${() => this.deny()}>${this.#t('deny')}</button>
      </div>
      ${this.#error ? html`<p class="error" role="alert">${this.#error}</p>` : nothing}
      <p id="always-note" class="muted always-note">
        ${hub.assistants.get(r.assistantId).approval === 'always-ask' ? this.#t('alwaysAllowSwitches') : this.#t('alwaysAllowTrusts')}
      </p>
    </div>`;
  }

  /**
   * An argument's name in the approval box: the real key always (what the server receives), and
   * the schema's title beside it when it says something else. A title is the server's own text:
   * alone it could call `amount` "Recipient".
   */
  #key(key: string, title: string | undefined) {
    const t = title?.trim();
    if (!t || t === key) return key;
    return html`${t} <code class="key">${key}</code>`;
  }

  /** One argument's value in the approval box, its cut (if any) said in words. */
  #value(v: unknown) {
    const { text, cut } = readable(v);
    return html`<span class="value">${text}</span>${
        cut
          ? html`<span class="cut">${this.#t('approvalCut').replace('{n}', cut.toLocaleString('en-US'))}</span>`
          : nothing
      }`;
  }
}
