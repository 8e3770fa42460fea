// The explorer's side of resource subscriptions: it listens to its hub's `mcp-resource-updated`
// while connected (following a `hub` property that changes), marks each updated resource, and
// has the open one read again. In the element's own chunk, not the Resources tab's: updates count
// while another tab is shown, before that chunk was ever fetched (a resource is open only once
// it has arrived, so reading one again is the tab's: `onUpdate`).
import type { ReactiveController } from 'lit';
import type { McpHub, McpResourceUpdatedEvent } from '../../core/index.js';
import type { ExplorerElement, UpdateMarks } from './host.js';

/** The key of one resource of one server in the explorer's maps. */
export const resourceKey = (serverId: string, uri: string) => `${serverId}\u0000${uri}`;

export class ResourceWatch implements ReactiveController, UpdateMarks {
  #hub?: McpHub;
  /** Updates reported per watched resource (`serverId\0uri`) since it was last read. */
  #updated: Record<string, number> = {};
  constructor(
    private readonly host: ExplorerElement,
    private readonly onUpdate: (serverId: string, uri: string) => void,
  ) {
    host.addController(this);
  }

  /** Every mark, by `serverId\0uri`. */
  get marks(): Readonly<Record<string, number>> {
    return this.#updated;
  }

  count(key: string): number {
    return this.#updated[key] ?? 0;
  }

  clear(key: string): void {
    if (!(key in this.#updated)) return;
    const { [key]: _, ...rest } = this.#updated;
    this.#updated = rest;
    this.host.requestUpdate();
  }

  readonly #onUpdated = (e: McpResourceUpdatedEvent) => {
    const { serverId, uri } = e.detail;
    const key = resourceKey(serverId, uri);
    this.#updated = { ...this.#updated, [key]: this.count(key) + 1 };
    this.host.requestUpdate();
    this.onUpdate(serverId, uri);
  };

  #follow(hub: McpHub | undefined) {
    if (hub === this.#hub) return;
    this.#hub?.removeEventListener('mcp-resource-updated', this.#onUpdated as EventListener);
    this.#hub = hub;
    hub?.addEventListener('mcp-resource-updated', this.#onUpdated);
  }

  hostConnected() {
    this.#follow(this.host.hub);
  }
  hostUpdate() {
    if (this.host.isConnected) this.#follow(this.host.hub);
  }
  hostDisconnected() {
    this.#follow(undefined);
  }
}
