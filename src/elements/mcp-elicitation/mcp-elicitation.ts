import { css, html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { StoreController } from '../../controllers/store-controller.js';
import type { ElicitationRecord, SamplingRecord } from '../../core/index.js';
import { ANSWER_STRINGS, fill } from '../../internal/answer-strings.js';
import { isOpen, outcomeKey, renderRequest, requestsIn, type ServerRequest } from '../../internal/answer-list.js';
import { baseStyles, McpElement } from '../../internal/mcp-element.js';
import { isCallShown, onShownCallsChange } from '../../internal/shown-calls.js';

const STRINGS = { ...ANSWER_STRINGS };
export type McpElicitationStrings = typeof STRINGS;

/**
 * What servers ask of the user outside a tool call's card: elicitation forms (generated from
 * the server's restricted schema, with Accept / Decline / Cancel and field errors), URL requests
 * (the target domain shown prominently, the full URL, an explicit Open button — never opened
 * automatically) and sampling requests (approve what the server asks the page's model, then
 * review, edit and send the answer). A request linked to a call whose `<mcp-tool-call>` card is
 * on the page is shown in that card instead, unless `show-all` is set. Requests a host took over
 * (`preventDefault()` on `mcp-elicitation-request` / `mcp-sampling-request`) are not shown.
 * Renders nothing while nothing waits. Focus moves to a new request unless the user is typing.
 *
 * @summary Answer what MCP servers ask: forms, URLs to open, and sampling approvals.
 * @tag mcp-elicitation
 *
 * @attr server-id - Show only this server's requests.
 * @attr show-all - Also show requests that a tool-call card on the page already shows.
 * @attr theme - `auto` (default: match the host page behind the element), `system` (follow `prefers-color-scheme`), `light` or `dark`.
 * @prop {McpHub} hub - The hub (defaults to the page's).
 * @prop {Partial<McpElicitationStrings>} strings - Replacement user-visible strings (`{server}`, `{domain}`, `{model}`, `{limit}` are filled in).
 *
 * @fires {McpElicitationRequestEvent} mcp-elicitation-request - From the hub when a server asks (cancelable: the host answers itself and this element leaves it alone).
 * @fires {McpSamplingRequestEvent} mcp-sampling-request - From the hub when a server asks for the page's model (cancelable, likewise).
 *
 * @csspart list - The list of requests.
 * @csspart request - One request (an item of the list).
 * @csspart views-failed - Shown instead of a request when the views that answer it could not be loaded (with Try again).
 *
 * @cssprop --mcp-elicitation-gap - Space between requests.
 *
 * @cssstate empty - Nothing waits.
 * @cssstate pending - At least one request waits.
 */
export class McpElicitationElement extends McpElement<McpElicitationStrings> {
  static override properties = {
    ...McpElement.properties,
    serverId: { attribute: 'server-id' },
    showAll: { attribute: 'show-all', type: Boolean },
    _announce: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--mcp-elicitation-gap, 0.75rem);
      }
    `,
  ];
  /** Show only this server's requests. */
  declare serverId?: string;
  /** Also show requests that a tool-call card on the page already shows. */
  declare showAll: boolean;
  declare _announce: string;
  /** @internal */
  protected override defaultStrings = STRINGS;
  readonly #internals = this.attachInternals();
  readonly #open = new StoreController(this, (s) =>
    requestsIn(s, (r) => isOpen(r) && (!this.serverId || r.serverId === this.serverId)),
  );
  #stopWatchingCards?: () => void;
  #shownIds: readonly string[] = [];

  constructor() {
    super();
    this.showAll = false;
    this._announce = '';
  }

  /** The requests this element shows now, oldest first. */
  get requests(): readonly (ElicitationRecord | SamplingRecord)[] {
    return this.#open.value.filter((r) => this.showAll || !r.callId || !isCallShown(r.callId));
  }

  /** How many requests wait here. */
  get count(): number {
    return this.requests.length;
  }

  override connectedCallback() {
    super.connectedCallback();
    this.#stopWatchingCards = onShownCallsChange(() => this.requestUpdate());
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopWatchingCards?.();
    this.#stopWatchingCards = undefined;
  }

  #serverName = (id: string) => this.hub.store.state.servers[id]?.name ?? id;

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('hub') || changed.has('serverId')) this.#open.refresh();
    // say what became of a request that left the list (its view is gone with it)
    const ids = this.requests.map((r) => r.id);
    const state = this.hub.store.state;
    const gone = this.#shownIds
      .filter((id) => !ids.includes(id))
      .map((id): ServerRequest | undefined => state.elicitations[id] ?? state.samplings[id])
      .filter((r): r is ServerRequest => !!r && !isOpen(r));
    if (gone.length) this._announce = gone.map((r) => this.#outcome(r)).join(' ');
    this.#shownIds = ids;
  }

  #outcome(r: ServerRequest): string {
    return fill(this.t(outcomeKey(r)), { server: this.#serverName(r.serverId) });
  }

  override updated() {
    const states = this.#internals.states as CustomStateSet | undefined;
    if (!states) return;
    const pending = this.count > 0;
    states.delete(pending ? 'empty' : 'pending');
    states.add(pending ? 'pending' : 'empty');
  }

  override render() {
    const list = this.requests;
    return html`${
        list.length
          ? html`<ul part="list" aria-label=${this.t('requests')}>
              ${repeat(
                list,
                (r) => r.id,
                (r) => html`<li part="request">${renderRequest(r, this, this.#serverName)}</li>`,
              )}
            </ul>`
          : nothing
      } <span class="visually-hidden" role="status" aria-live="polite">${this._announce}</span>`;
  }
}
