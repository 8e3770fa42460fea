// Suggestions from the server for a prompt argument or a resource template variable
// (`completion/complete`, through `hub.client(id).complete`), offered only when the server
// declares `completions`, as the MCP Inspector does: asked when the field gets focus and again
// as the user types (debounced), with the other fields' values as the request's context, and
// shown as the field's <datalist> (the browser's own list: arrow keys, Enter, Escape).
import { html, type ReactiveController } from 'lit';
import type { CompleteRequestParams } from '../../core/index.js';
import type { ExplorerElement } from './host.js';

/** The pause in typing after which the server is asked (the Inspector waits 300 ms too). */
const DEBOUNCE_MS = 300;

/** What a field completes: a prompt's argument or a resource template's variable. */
export interface CompletionTarget {
  serverId: string;
  ref: CompleteRequestParams['ref'];
  /** The argument or variable. */
  name: string;
  /** The other fields' values (`context.arguments`), read when the request goes. */
  context: () => Record<string, string>;
}

/** The suggestions of one explorer's fields, by field id; asks, debounces, drops stale answers. */
export class Suggestions implements ReactiveController {
  readonly #values = new Map<string, readonly string[]>();
  readonly #waits = new Map<string, { timer?: ReturnType<typeof setTimeout>; abort?: AbortController }>();
  constructor(private readonly host: ExplorerElement) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Ask for `value` now (focus) or after the typing pause (input). */
  ask(field: string, target: CompletionTarget, value: string, now = false): void {
    const wait = this.#waits.get(field) ?? {};
    clearTimeout(wait.timer);
    wait.abort?.abort();
    this.#waits.set(field, wait);
    const go = () => {
      const abort = (wait.abort = new AbortController());
      const context = Object.fromEntries(Object.entries(target.context()).filter(([k, v]) => k !== target.name && v));
      this.host.hub
        .client(target.serverId)
        .complete(
          {
            ref: target.ref,
            argument: { name: target.name, value },
            ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
          },
          { signal: abort.signal },
        )
        .then(
          (r) => {
            if (abort.signal.aborted) return;
            // text only, each once, at most the 100 the protocol allows
            this.#values.set(
              field,
              [...new Set(r.completion.values.filter((v) => typeof v === 'string'))].slice(0, 100),
            );
            this.host.requestUpdate();
          },
          // no suggestions is never an error the user has to see: the field still takes any value
          () => {},
        );
    };
    if (now) go();
    else wait.timer = setTimeout(go, DEBOUNCE_MS);
  }

  /** Stop every pending request (the explorer left the page). */
  stop(): void {
    for (const wait of this.#waits.values()) {
      clearTimeout(wait.timer);
      wait.abort?.abort();
    }
    this.#waits.clear();
  }

  /**
   * A field's completion wiring: its `list` id and handlers, and the datalist itself; nothing
   * when the server offers no completions.
   */
  field(field: string, target: CompletionTarget) {
    if (!this.host.hub.offersCompletions(target.serverId)) return undefined;
    const list = `${field}-suggestions`;
    const values = this.#values.get(field) ?? [];
    return {
      list,
      onFocus: (e: Event) => this.ask(field, target, (e.target as HTMLInputElement).value, true),
      onInput: (e: Event) => this.ask(field, target, (e.target as HTMLInputElement).value),
      datalist: html`<datalist id=${list}>${values.map((v) => html`<option value=${v}></option>`)}</datalist>`,
    };
  }
}
