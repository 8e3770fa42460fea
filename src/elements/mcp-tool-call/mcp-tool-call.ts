import { html, nothing, type PropertyValues } from 'lit';
import { errorText } from '../../internal/error-text.js';
import { repeat } from 'lit/directives/repeat.js';
import { renderRequest, requestsIn, waitsOnUser, type ServerRequest } from '../../internal/answer-list.js';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import { renderCopy, renderResult, resultStrings } from '../../internal/result-view.js';
import { showCall } from '../../internal/shown-calls.js';
import { importOnce } from '../../internal/import-once.js';
import { shallowEqual, StoreController } from '../../controllers/store-controller.js';
import { toolUi, type ToolCallRecord, type ToolCallStatus } from '../../core/index.js';
import { styles } from './mcp-tool-call.styles.js';
import { ApprovalController } from './approval.js';
import { formatDuration, formatElapsed, progressText } from './call-text.js';
import { ElapsedClock } from './elapsed-clock.js';
import { TOOL_CALL_STRINGS, type McpToolCallStrings } from './strings.js';

export type { McpToolCallStrings } from './strings.js';

const STATUSES: readonly ToolCallStatus[] = [
  'pending',
  'awaiting-approval',
  'needs-sign-in',
  'running',
  'success',
  'error',
  'denied',
  'cancelled',
  'interrupted',
];

/** A call whose tool has a view shows it from when it runs (input first, then its result or end). */
const SHOWS_VIEW: ReadonlySet<ToolCallStatus> = new Set(['running', 'success', 'error', 'cancelled', 'interrupted']);
const loadAppView = importOnce('<mcp-app-view>', () => import('../mcp-app-view/define.js'));

/**
 * One tool call as a card: tool and server, arguments, status, duration, progress, approval
 * (Allow once / Always allow / Deny, with warnings from the tool's annotations), cancel, and the
 * result or error. Bound to a hub record by `call-id` (follows it live) or given as `.call`.
 * The status is a custom state (`:state(running)`) and also the `data-status` attribute.
 * What the server asks while the call runs — an elicitation form or URL, or a sampling request
 * for the page's model (approve, then review the answer) — is shown inside the card, with the
 * same views as `<mcp-elicitation>`, and stays as a one-line outcome once answered; while the
 * card is on the page, `<mcp-elicitation>` leaves those requests to it.
 * Results read as a person reads them: prose in the body font, JSON pretty-printed (a structured
 * result as one collapsible tree), markdown rendered safely (marked + DOMPurify, loaded the first
 * time a result holds markdown), images that enlarge; Copy on the result and the arguments;
 * progress in steps and percent with the time since the call started. A call `interrupted` by a
 * reload offers "Run again" (`hub.calls.runAgain`): the same call anew, which the card then
 * follows (its `call-id` changes; the hub's events for it carry `rerunOf`). A call that only
 * waited for approval when the page reloaded still waits, and Allow runs it.
 *
 * @summary Shows one MCP tool call and lets the user approve, deny or cancel it.
 * @tag mcp-tool-call
 *
 * @attr call-id - The id of a call in the hub; the card follows it live.
 * @attr return-focus - Where focus goes after the user decides in the card (Allow, Always allow, Deny, Escape): a selector in the card's document (e.g. `#prompt`, the host's composer). Without it focus stays in the card.
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {ToolCallRecord | undefined} call - A call record to show (used when no `call-id`).
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpToolCallStrings>} strings - Replacement user-visible strings.
 *
 * @fires {McpToolCallStartedEvent} mcp-tool-call-started - From the hub, after "Allow" lets the call run (reaches `window`).
 * @fires {McpToolCallDeniedEvent} mcp-tool-call-denied - From the hub, after "Deny" or Escape.
 * @fires {McpToolCallCancelledEvent} mcp-tool-call-cancelled - From the hub, after "Cancel".
 * @fires {McpElicitationRequestEvent} mcp-elicitation-request - From the hub when the server asks for input during the call (cancelable: the host answers itself and the card leaves it alone).
 * @fires {McpSamplingRequestEvent} mcp-sampling-request - From the hub when the server asks for the page's model during the call (cancelable, likewise).
 *
 * @csspart card - The card.
 * @csspart header - Tool, server and status line.
 * @csspart status - The status badge.
 * @csspart arguments - The arguments disclosure.
 * @csspart approval - The approval box (warnings and buttons).
 * @csspart sign-in - For a call waiting on sign-in: the note and the Sign in button (it calls
 *   `hub.signIn()` in the click; the call resumes once signed in).
 * @csspart actions - Button row.
 * @csspart progress - The progress bar and its text ("3 of 10 (30%)", or "3 so far" without a total).
 * @csspart elapsed - While the call runs: the time since it started; "waiting for you" instead while the server waits on the user's answer to its question inside the call (docs/decisions/098-card-timer-waiting.md).
 * @csspart copy - A Copy button (the result's text, or the arguments' JSON).
 * @csspart image-zoom - The button around a result image that enlarges it.
 * @csspart image-dialog - The enlarged image's modal dialog (Escape, Close or a click outside closes it).
 * @csspart rerun - For an interrupted call: the note and the Run again button.
 * @csspart task - For a call the server runs as a task: the task's status message while it runs.
 * @csspart result - The result.
 * @csspart error - The error message.
 * @csspart requests - What the server asks during the call (forms, URLs, sampling).
 * @csspart view - The tool's MCP App view (`<mcp-app-view>`), when its tool has one.
 * @csspart views-failed - Shown instead of a request when the views that answer it could not be loaded (with Try again).
 *
 * @cssprop --mcp-tool-call-background - Card background.
 * @cssprop --mcp-tool-call-border-color - Card border colour.
 *
 * @cssstate pending - Not started yet (or waiting for a slot).
 * @cssstate awaiting-approval - Waiting for the user's decision.
 * @cssstate running - Sent to the server.
 * @cssstate success - Finished with a result.
 * @cssstate error - Failed (including a tool's error result).
 * @cssstate denied - Refused before it ran (by the user or the host).
 * @cssstate cancelled - Cancelled before it finished.
 * @cssstate interrupted - The page went away while it ran.
 */
export class McpToolCallElement extends McpElement<McpToolCallStrings> {
  static override properties = {
    ...McpElement.properties,
    callId: { attribute: 'call-id' },
    call: { attribute: false },
    returnFocus: { attribute: 'return-focus' },
  };
  static override styles = [baseStyles, styles];
  /** The id of a call in the hub. */
  declare callId?: string;
  /** A call record to show when no `call-id` is set. */
  declare call?: ToolCallRecord;
  /** After the user's decision, focus this (a selector in the card's document, or an element). */
  declare returnFocus?: string | HTMLElement;
  /** @internal */
  protected override defaultStrings = TOOL_CALL_STRINGS;
  readonly #internals = this.attachInternals();
  #requests: ServerRequest[] = [];
  // one subscription: the call and what its server asks during it (kept identical while unchanged)
  readonly #view = new StoreController(this, (s, hub) => {
    const id = this.callId || this.call?.id;
    const requests = id ? requestsIn(s, (r) => r.callId === id) : [];
    if (!shallowEqual(requests, this.#requests)) this.#requests = requests;
    return { call: this.callId ? hub.calls.get(this.callId) : undefined, requests: this.#requests };
  });
  #lastStatus?: ToolCallStatus;
  /** The call whose view was readied while it waited for approval. */
  #prepared?: string;
  #shown?: string;
  /** Redraws the elapsed time each second while the call is live. */
  readonly #clock = new ElapsedClock(this);
  /** The approval box and the decision taken in it. */
  readonly #approval = new ApprovalController(this, (k) => String(this.t(k)));
  /** Why "Run again" could not start a call (shown under it). */
  #rerunError?: string;

  /** The record shown: the hub's (by `call-id`) or the `.call` property. */
  get record(): ToolCallRecord | undefined {
    return this.#view.value.call ?? (this.callId ? undefined : this.call);
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('callId') || changed.has('hub') || changed.has('call')) this.#view.refresh();
  }

  override connectedCallback() {
    super.connectedCallback();
    this.#syncShown();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#syncShown();
  }

  /** Tell <mcp-elicitation> which call this card shows (it leaves that call's requests to us). */
  #syncShown() {
    const id = this.isConnected ? this.record?.id : undefined;
    if (id === this.#shown) return;
    if (this.#shown) showCall(this.#shown, false);
    if (id) showCall(id, true);
    this.#shown = id;
  }

  override updated() {
    this.#syncShown();
    const r = this.record;
    const status = r?.status;
    // the elapsed time is redrawn each second while the call runs (or waits for a slot)
    this.#clock.run(
      this.isConnected && !!r?.startedAt && (status === 'running' || status === 'pending') && !this.#waitsOnUser(),
    );
    if (status !== this.#lastStatus) {
      // custom states where the browser has them (Chromium 125+, Safari 17.4+, Firefox 126+)
      const states = this.#internals.states as CustomStateSet | undefined;
      if (states) {
        for (const s of STATUSES) states.delete(s);
        if (status) states.add(status);
      }
      this.dataset.status = status ?? '';
      // move focus to the decision when a call starts waiting for it
      if (status === 'awaiting-approval') (this.renderRoot.querySelector('.approval') as HTMLElement | null)?.focus();
      this.#lastStatus = status;
    }
  }

  /** The server waits on the user's answer inside the call: no timer runs then. */
  #waitsOnUser(): boolean {
    return this.record?.status === 'running' && this.#view.value.requests.some(waitsOnUser);
  }

  /** In the click itself: the sign-in popup must open before anything is awaited. */
  #signIn() {
    const r = this.record;
    if (r) this.hub.signIn(r.serverId).catch(() => {});
  }
  #cancel() {
    const r = this.record;
    if (r) this.hub.calls.cancel(r.id);
  }
  /**
   * The same call again, as a new call (`hub.calls.runAgain`): the card follows the new one (its
   * `call-id` changes; the hub's events for it carry `rerunOf`, so the host can follow too).
   */
  #runAgain() {
    const r = this.record;
    if (!r) return;
    this.#rerunError = undefined;
    this.hub.calls
      .runAgain(r.id, {
        // followed live from now on, also when the card was given a `.call`
        onCall: (next) => this.setAttribute('call-id', next.id),
      })
      .catch((e: Error) => {
        this.#rerunError = e.message;
        this.requestUpdate();
      });
  }
  #onKeydown(e: KeyboardEvent) {
    if (e.key === 'Escape' && this.record?.status === 'awaiting-approval') {
      e.preventDefault();
      this.#approval.deny();
    }
  }

  /** The first sentence in the alert, the rest (never a server's HTML page) under Details. */
  #renderError(message: string) {
    const { summary, details } = errorText({ message });
    return html`<p class="error" part="error" role="alert">${summary}</p>
      ${
        details
          ? html`<details class="error-details">
              <summary>${this.t('errorDetails')}</summary>
              <p>${details}</p>
            </details>`
          : nothing
      }`;
  }

  /** The line under a call that did not succeed. */
  #errorText(r: ToolCallRecord): string | undefined {
    if (!r.error || (r.error.code === 'tool-error' && r.result)) return undefined;
    if (r.error.code === 'denied' && r.error.message === 'Denied.') return this.t('deniedByUser');
    return r.error.message;
  }

  /** MCP Apps: the tool's own view under the call, once it may run (the element loads lazily). */
  #appView(r: ToolCallRecord) {
    const tool = this.hub.catalogue(r.serverId)?.tools.find((t) => t.name === r.tool);
    const uri = toolUi(tool).resourceUri;
    if (!uri) return nothing;
    // from `running` (the call was allowed), or at once for a person's own call (Try it)
    const allowed = SHOWS_VIEW.has(r.status) || (r.status === 'pending' && r.source === 'user');
    if (!allowed) {
      // while the user decides: the view's code, resource and proxy load, once per call
      if (r.status === 'awaiting-approval' && this.#prepared !== r.id) {
        this.#prepared = r.id;
        void loadAppView().then((m) => m?.prepareAppView(this.hub, r.serverId, uri));
      }
      return nothing;
    }
    void loadAppView();
    return html`<mcp-app-view part="view" call-id=${r.id} .hub=${this.hub} .call=${r}></mcp-app-view>`;
  }

  override render() {
    const r = this.record;
    if (!r) return html`<div class="card" part="card"><p class="muted">${this.t('noCall')}</p></div>`;
    const waiting = r.status === 'awaiting-approval';
    const signIn = r.status === 'needs-sign-in';
    const live = r.status === 'pending' || r.status === 'running' || waiting || signIn;
    const args = JSON.stringify(r.arguments, null, 2);
    const error = this.#errorText(r);
    return html`<article
      class="card"
      part="card"
      aria-label=${`${r.toolTitle ?? r.tool} ${this.t('on')} ${r.serverName}`}
      @keydown=${this.#onKeydown}
    >
      <header part="header">
        <span class="tool">${r.toolTitle ?? r.tool}</span>
        <span class="server">${this.t('on')} ${r.serverName}</span>
        <span class="status" part="status" data-status=${r.status}>${this.t(r.status)}</span>
        ${r.durationMs !== undefined ? html`<span class="muted">${this.t('duration')} ${formatDuration(r.durationMs)}</span>` : nothing}
        ${
          live && r.startedAt && !waiting && !signIn
            ? html`<span class="muted elapsed" part="elapsed"
                >${
                  this.#waitsOnUser()
                    ? this.t('waitingForYou')
                    : this.t('elapsed').replace('{time}', formatElapsed(Date.now() - r.startedAt))
                }</span
              >`
            : nothing
        }
        ${
          live && !waiting
            ? html`<button class="cancel" data-action="cancel" @click=${() => this.#cancel()}>
                ${this.t('cancel')}
              </button>`
            : nothing
        }
      </header>
      ${waiting ? this.#approval.render(r) : nothing}
      <details part="arguments">
        <summary>${this.t('arguments')}</summary>
        ${renderCopy(args, { copy: this.t('copy'), copied: this.t('copied') })}
        <pre tabindex="0">${args}</pre>
      </details>
      ${
        signIn
          ? html`<div class="sign-in" part="sign-in" role="group" aria-label=${this.t('signInNeeded')}>
              <p>${this.t('signInNeeded')}</p>
              <div class="actions" part="actions">
                <button class="primary" data-action="sign-in" @click=${() => this.#signIn()}>
                  ${this.t('signIn')}
                </button>
              </div>
            </div>`
          : nothing
      }
      ${
        r.status === 'running' && r.progress
          ? html`<div part="progress" class="progress">
              <progress
                aria-label=${this.t('progress')}
                aria-valuetext=${progressText(r.progress, (k) => this.t(k))}
                value=${r.progress.total && r.progress.total > 0 ? Math.min(r.progress.progress, r.progress.total) : nothing}
                max=${r.progress.total && r.progress.total > 0 ? r.progress.total : nothing}
              ></progress>
              <span class="muted progress-text">${progressText(r.progress, (k) => this.t(k))}</span>
              ${r.progress.message ? html`<span class="muted">${r.progress.message}</span>` : nothing}
            </div>`
          : nothing
      }
      ${
        live && r.task?.statusMessage
          ? html`<p class="muted task-status" part="task" role="status">${r.task.statusMessage}</p>`
          : nothing
      }
      ${
        this.#view.value.requests.length
          ? html`<div class="requests" part="requests">
              ${repeat(
                this.#view.value.requests,
                (q) => q.id,
                (q) => renderRequest(q, this, (id) => this.hub.store.state.servers[id]?.name ?? r.serverName),
              )}
            </div>`
          : nothing
      }
      ${
        r.status === 'interrupted' && r.source !== 'app'
          ? html`<div class="rerun" part="rerun">
              <p class="muted">${this.t('runAgainNote')}</p>
              <div class="actions" part="actions">
                <button class="primary" data-action="run-again" @click=${() => this.#runAgain()}>
                  ${this.t('runAgain')}
                </button>
              </div>
              ${this.#rerunError ? html`<p class="error" role="alert">${this.#rerunError}</p>` : nothing}
            </div>`
          : nothing
      }
      ${
        r.result
          ? renderResult(
              r.result,
              resultStrings((k) => this.t(k)),
            )
          : nothing
      }
      ${error ? this.#renderError(error) : nothing} ${this.#appView(r)}
      <span class="visually-hidden" role="status" aria-live="polite"
        >${live ? '' : `${this.t('finished')} ${r.toolTitle ?? r.tool}: ${this.t(r.status)}`}</span
      >
    </article>`;
  }
}
