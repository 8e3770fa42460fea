import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { McpHub } from '../core/index.js';
import type { HubState } from '../core/index.js';

/** Shallow equality for arrays and plain objects; identity otherwise. */
export function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Subscribes its host to a slice of the hub's state: subscribes on connect, unsubscribes on
 * disconnect, and asks for an update only when the selected slice changed (shallowly).
 */
export class StoreController<T> implements ReactiveController {
  value: T;
  #unsubscribe?: () => void;
  #hub: McpHub;
  constructor(
    private readonly host: ReactiveControllerHost & { hub: McpHub },
    private readonly select: (state: HubState, hub: McpHub) => T,
  ) {
    this.#hub = host.hub;
    this.value = select(host.hub.store.state, host.hub);
    host.addController(this);
  }
  hostConnected() {
    this.#attach();
  }
  hostDisconnected() {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
  /** Call when the host's hub or selection inputs changed. */
  refresh() {
    if (this.host.hub !== this.#hub && this.#unsubscribe) {
      this.#unsubscribe();
      this.#unsubscribe = undefined;
      this.#attach();
      return;
    }
    this.#take(this.host.hub.store.state);
  }
  #attach() {
    this.#hub = this.host.hub;
    this.#unsubscribe = this.#hub.store.subscribe((s) => this.#take(s));
    this.#take(this.#hub.store.state);
  }
  #take(state: HubState) {
    const next = this.select(state, this.#hub);
    if (!shallowEqual(next, this.value)) {
      this.value = next;
      this.host.requestUpdate();
    }
  }
}
