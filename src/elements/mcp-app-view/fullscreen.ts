// Full screen for <mcp-app-view>: while the view covers the page, everything else on the page is
// `inert` (no Tab stop, no click, out of the accessibility tree), Escape goes back inline, and the
// focus returns to what opened it. Why `inert` and not a modal <dialog>: docs/decisions/103-app-view-fullscreen.md.
import type { ReactiveController, ReactiveElement } from 'lit';

/** What the controller needs of its element. */
export interface FullscreenHost extends ReactiveElement {
  readonly displayMode: 'inline' | 'fullscreen' | 'pip';
  /** Go back inline (the view is told, as for the element's own button). */
  requestDisplayMode(mode: 'inline'): void;
}

/** The focused element, through open shadow roots. */
function deepActive(): Element | null {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** The node one step up in the flat tree: the slot a node is assigned to, else its parent (a shadow root's host). */
function composedParent(node: Node): Node | null {
  const slot = (node as Element).assignedSlot;
  if (slot) return slot;
  const parent = node.parentNode;
  return parent instanceof ShadowRoot ? parent.host : parent;
}

export class FullscreenController implements ReactiveController {
  readonly #host: FullscreenHost;
  /** Elements this controller made inert (and only those: a host's own inert stays). */
  #inerted: Element[] = [];
  /** Watches the parents it walked: what the page adds while the view is full screen is inert too. */
  #added?: MutationObserver;
  /** What had the focus when the view went full screen. */
  #opener: Element | null = null;
  #on = false;

  constructor(host: FullscreenHost) {
    this.#host = host;
    host.addController(this);
  }

  hostUpdated() {
    const full = this.#host.isConnected && this.#host.displayMode === 'fullscreen';
    if (full && !this.#on) this.#enter();
    else if (!full && this.#on) this.#leave(this.#host.isConnected);
  }

  hostDisconnected() {
    if (this.#on) this.#leave(false);
  }

  #enter() {
    this.#on = true;
    this.#opener = deepActive();
    this.#shut();
    window.addEventListener('keydown', this.#onKey);
    // the focus stays where it is when it is in the view's part of the page (the view's frame, when
    // the view asked in the user's click in it); otherwise it moves to the way back
    const root = this.#host.renderRoot as ShadowRoot;
    const now = deepActive();
    if (!now || !(now === this.#host || root.contains(now)))
      root.querySelector<HTMLElement>('[data-action="inline"]')?.focus();
  }

  #leave(refocus: boolean) {
    this.#on = false;
    window.removeEventListener('keydown', this.#onKey);
    this.#added?.disconnect();
    this.#added = undefined;
    for (const el of this.#inerted) el.removeAttribute('inert');
    this.#inerted = [];
    const opener = this.#opener === document.body ? null : this.#opener;
    this.#opener = null;
    if (!refocus) return;
    // back to the control that opened it; the element's own Full screen button is a new one now
    const root = this.#host.renderRoot as ShadowRoot;
    const target =
      (opener?.isConnected ? (opener as HTMLElement) : null) ??
      root.querySelector<HTMLElement>('[data-action="fullscreen"]') ??
      root.querySelector<HTMLElement>('iframe');
    target?.focus();
  }

  /** Make every element of the page inert but the ones on the way from the document to this element. */
  #shut() {
    const parents: Node[] = [];
    const mark = (el: Element, keep: Node) => {
      if (el === keep || el.hasAttribute('inert') || el.localName === 'head' || el.contains(keep)) return;
      el.setAttribute('inert', '');
      this.#inerted.push(el);
    };
    for (let node: Node | null = this.#host; node; node = composedParent(node)) {
      const parent = node.parentNode;
      if (!parent) break;
      for (const sibling of (parent as ParentNode).children) mark(sibling, node);
      parents.push(parent);
    }
    this.#added = new MutationObserver((records) => {
      for (const r of records) for (const added of r.addedNodes) if (added instanceof Element) mark(added, this.#host);
    });
    for (const p of parents) this.#added.observe(p, { childList: true });
  }

  #onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.#host.requestDisplayMode('inline');
    } else if (e.key === 'Tab' && !e.altKey && !e.ctrlKey && !e.metaKey) this.#wrap(e);
  };

  /**
   * Tab past the last of the view's controls goes to its first, Shift+Tab before the first to its
   * last (the rest of the page is inert; without this, Firefox leaves the focus on the document).
   * Keys inside the view's frame are the view's: Tab out of it reaches the controls around it.
   */
  #wrap(e: KeyboardEvent) {
    const root = this.#host.renderRoot as ShadowRoot;
    const stops = [...root.querySelectorAll<HTMLElement>('button:not([disabled]), iframe')];
    const at = deepActive();
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    const inside = at === this.#host || (!!at && root.contains(at));
    if (e.shiftKey ? at === first || !inside : at === last || !inside) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  }
}
