// Cards that stay. G4F re-renders its conversation (`#chatBody`) from what it stored when a turn
// ends and when the page loads, which removes every element it did not write itself. It does
// write where each call happened: "🔧 **Tool Call:** `name`" in the assistant's message. So the
// drop-in remembers, per conversation, which call it showed under which name, watches the
// container, and puts each call's card back after the line that names it (the k-th call of a
// name in a conversation beside the k-th line naming it), from the hub's history after a reload.
import type { McpHub } from '../core/index.js';

/** One call the drop-in showed: its id, the name the model called it by, and its conversation. */
export interface ShownCall {
  readonly id: string;
  readonly name: string;
  readonly conversation?: string;
}

/** Calls remembered (oldest dropped first). */
export const SHOWN_LIMIT = 500;

/** The conversation G4F's page has open (its global `conversation_id`), if any. */
export function g4fConversation(): string | undefined {
  const id = (globalThis as { conversation_id?: unknown }).conversation_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * The lines in `root` that name a call of `name`, in document order: a `code` element whose
 * text is the name, in a block that says "Tool Call" (G4F also prints "Tool Result" lines with
 * the name: those are not where a call happened).
 */
export function callLines(root: Element, name: string): Element[] {
  const out: Element[] = [];
  for (const code of root.querySelectorAll('code')) {
    if (code.textContent?.trim() !== name) continue;
    const block = code.closest('p, li, div, span') ?? code.parentElement;
    if (block && /tool call/i.test(block.textContent ?? '')) out.push(block);
  }
  return out;
}

/**
 * What a card follows for a line: the line itself, or the box that hides it. G4F renders a
 * finished turn's reasoning (where the lines are) collapsed (`.reasoning_text.final.hidden` in a
 * `.reasoning_body`): a card inside would be hidden with it, so it goes after the reasoning box,
 * still in the message.
 */
function anchorOf(line: Element, root: Element): Element {
  const box = line.closest('.reasoning_body, [hidden], .hidden');
  return box && box !== root && root.contains(box) ? (box.closest('.reasoning_body') ?? box) : line;
}

/** Where a card goes for a line: after its anchor, and after the arguments block that follows it. */
function spot(anchor: Element): { parent: Node; before: Node | null } {
  let after: Element = anchor;
  const next = after.nextElementSibling;
  if (next && (next.tagName === 'PRE' || next.matches('[data-tool-args]'))) after = next;
  // skip our own cards already there, so several calls on one line keep their order
  let n = after.nextElementSibling;
  while (n && n.tagName === 'MCP-TOOL-CALL') {
    after = n;
    n = after.nextElementSibling;
  }
  return { parent: after.parentNode!, before: after.nextSibling };
}

/** Whether the card follows its anchor, with only its arguments block and other cards between. */
function inPlace(card: Element, anchor: Element): boolean {
  let prev = card.previousElementSibling;
  while (prev && prev.tagName === 'MCP-TOOL-CALL') prev = prev.previousElementSibling;
  if (prev && prev !== anchor && (prev.tagName === 'PRE' || prev.matches('[data-tool-args]')))
    prev = prev.previousElementSibling;
  return prev === anchor;
}

const DONE = new Set(['success', 'error', 'denied', 'cancelled', 'interrupted']);

export class CardKeeper {
  #observer?: MutationObserver;
  #scheduled = false;
  #cards = new Map<string, HTMLElement>();

  constructor(
    private readonly hub: McpHub,
    /** The container cards belong in, resolved now (undefined: none, nothing is re-attached). */
    private readonly root: () => Element | undefined,
    /** The calls shown so far, oldest first (persisted by the caller). */
    private readonly shown: () => readonly ShownCall[],
    private readonly conversation: () => string | undefined,
    private readonly make: (callId: string) => HTMLElement,
  ) {}

  /** A card the placer made for a call: kept, and re-attached when the host removes it. */
  adopt(callId: string, card: HTMLElement): void {
    this.#cards.set(callId, card);
    this.watch();
  }

  /** Start watching the page (idempotent); reconciles once now. */
  watch(): void {
    if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return;
    if (!this.#observer) {
      this.#observer = new MutationObserver(() => this.#schedule());
      this.#observer.observe(document.documentElement, { childList: true, subtree: true });
    }
    this.#schedule();
  }

  stop(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.reconcile();
    });
  }

  #active(callId: string): boolean {
    const r = this.hub.calls.get(callId);
    return !!r && !DONE.has(r.status);
  }

  /** Put every shown call of the open conversation beside the line that names it. */
  reconcile(): void {
    const root = this.root();
    if (!root?.isConnected || !this.hub.store.state.ready) return;
    const conversation = this.conversation();
    const byName = new Map<string, ShownCall[]>();
    for (const c of this.shown()) {
      if (c.conversation !== conversation) continue;
      const list = byName.get(c.name);
      if (list) list.push(c);
      else byName.set(c.name, [c]);
    }
    for (const [name, calls] of byName) {
      const lines = callLines(root, name);
      calls.forEach((call, i) => {
        const line = lines[i];
        let card = this.#cards.get(call.id);
        if (!line) {
          // not rendered (yet): the card stays where the placer put it; one the host removed
          // while the call still waits (an approval) goes back into the container
          if (card && !card.isConnected && this.#active(call.id)) root.append(card);
          return;
        }
        const anchor = anchorOf(line, root);
        if (card && inPlace(card, anchor)) return;
        if (!card) {
          // after a reload: from the hub's history, when it still has the call
          if (!this.hub.calls.get(call.id)) return;
          card = this.make(call.id);
          this.#cards.set(call.id, card);
        }
        const { parent, before } = spot(anchor);
        parent.insertBefore(card, before);
      });
    }
  }
}
