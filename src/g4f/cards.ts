// Where the drop-in puts a `<mcp-tool-call>` card for each call it runs: the host's container,
// or a small dock of its own so an approval is never invisible.
import type { McpHub, ToolCallRecord } from '../core/index.js';

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

  constructor(
    private readonly hub: McpHub,
    public container: CardContainer | undefined,
  ) {}

  /** Show a card for the call; returns it (or undefined when the host wants none). */
  show(call: ToolCallRecord): HTMLElement | undefined {
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
    // the element's module is loaded with the first card (in the CDN build: its own chunk, the
    // autoloader's), so the drop-in adds no element code to a page until it shows a call
    void import('../elements/mcp-tool-call/define.js');
    const card = document.createElement('mcp-tool-call') as HTMLElement & { hub: McpHub };
    card.hub = this.hub;
    card.setAttribute('call-id', call.id);
    parent.append(card);
    return card;
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
