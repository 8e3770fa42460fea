// Where the drop-in puts a `<mcp-tool-call>` card for each call it runs: the host's container,
// or a small dock of its own so an approval is never invisible. Cards in the host's container
// are kept there across its re-renders and reloads (reattach.ts).
import type { McpHub, ToolCallRecord } from '../core/index.js';
import { readMirror, writeMirror } from './legacy.js';
import { CardKeeper, SHOWN_LIMIT, type ShownCall } from './reattach.js';

/**
 * Where cards go: an element, a CSS selector, a function of the call (return null for no card:
 * the host shows the call itself), or `null` for no cards at all. Absent: a dock at the bottom
 * right of the page.
 */
export type CardContainer = Element | string | ((call: ToolCallRecord) => Element | null | undefined) | null;

/** How long a finished call's card stays in the default dock (ms). */
export const DOCK_LINGER = 15_000;

export class CardPlacer {
  #dock?: HTMLElement;
  readonly #keeper: CardKeeper;
  /** The calls shown in the container (read once: a reconcile may run at every streamed chunk). */
  #shown?: ShownCall[];

  constructor(
    private readonly hub: McpHub,
    public container: CardContainer | undefined,
    private readonly storage?: Storage,
    private readonly conversation: () => string | undefined = () => undefined,
  ) {
    this.#keeper = new CardKeeper(
      hub,
      () => this.#root(),
      () => (this.#shown ??= readMirror(this.storage).calls ?? []),
      conversation,
      (id) => this.#card(id),
    );
  }

  /** The host's container when it is an element or a selector (cards there are kept there). */
  #root(): Element | undefined {
    const c = this.container;
    if (typeof document === 'undefined' || !c || typeof c === 'function') return undefined;
    return (typeof c === 'string' ? document.querySelector(c) : c) ?? undefined;
  }

  #card(callId: string): HTMLElement {
    // the element's module is loaded with the first card (in the CDN build: its own chunk, the
    // autoloader's), so the drop-in adds no element code to a page until it shows a call
    void import('../elements/mcp-tool-call/define.js');
    const card = document.createElement('mcp-tool-call') as HTMLElement & { hub: McpHub };
    card.hub = this.hub;
    card.setAttribute('call-id', callId);
    return card;
  }

  /** After a load: watch the container when calls were shown there before (their cards return). */
  restore(): void {
    this.#shown = readMirror(this.storage).calls ?? [];
    if (this.#root() !== undefined && this.#shown.length) this.#keeper.watch();
  }

  /** Stop watching the page. */
  dispose(): void {
    this.#keeper.stop();
  }

  /**
   * Show a card for the call; returns it (or undefined when the host wants none). `name` is the
   * name the call came by (what G4F prints where the call happened).
   */
  show(call: ToolCallRecord, name = call.name): HTMLElement | undefined {
    if (typeof document === 'undefined' || this.container === null) return undefined;
    let parent: Element | null | undefined;
    const c = this.container;
    if (typeof c === 'function') {
      parent = c(call);
      if (!parent) return undefined;
    } else if (typeof c === 'string') parent = document.querySelector(c);
    else parent = c;
    // a selector that matches nothing must not leave an approval waiting where nobody sees it
    if (!parent?.isConnected) parent = this.dock();
    const card = this.#card(call.id);
    parent.append(card);
    if (parent !== this.#dock && typeof c !== 'function') {
      const shown: ShownCall = { id: call.id, name, ...this.#conversationField() };
      this.#shown = [...(readMirror(this.storage).calls ?? []), shown].slice(-SHOWN_LIMIT);
      writeMirror(this.storage, { calls: this.#shown });
      this.#keeper.adopt(call.id, card);
    }
    return card;
  }

  #conversationField(): { conversation?: string } {
    const id = this.conversation();
    return id === undefined ? {} : { conversation: id };
  }

  /** The call ended: a card in the dock leaves after a while. */
  finished(card: HTMLElement | undefined): void {
    if (!card || card.parentElement !== this.#dock) return;
    setTimeout(() => {
      card.remove();
      if (this.#dock && !this.#dock.childElementCount) this.#dock.remove();
    }, DOCK_LINGER);
  }

  dock(): HTMLElement {
    if (this.#dock?.isConnected) return this.#dock;
    const dock = (this.#dock ??= document.createElement('div'));
    dock.dataset.mcpG4fDock = '';
    dock.setAttribute('role', 'region');
    dock.setAttribute('aria-label', 'Tool calls');
    // CSSOM, not a style attribute: allowed under a CSP without 'unsafe-inline'
    Object.assign(dock.style, {
      position: 'fixed',
      right: '1rem',
      bottom: '1rem',
      width: 'min(28rem, calc(100vw - 2rem))',
      maxHeight: '70vh',
      overflow: 'auto',
      display: 'grid',
      gap: '0.5rem',
      zIndex: '2147483000',
    });
    document.body.append(dock);
    return dock;
  }
}
