// The explorer's side of resource subscriptions: it listens to its hub's `mcp-resource-updated`
// while connected (following a `hub` property that changes), marks each updated resource, and
// reads the open one again. In the element's own chunk, not the Resources tab's: updates count
// while another tab is shown, before that chunk was ever fetched (a resource is open only once
// it has arrived, so reading one again is the tab's).
import type { ReactiveController } from 'lit';
import type { McpHub, McpResourceUpdatedEvent } from '../../core/index.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';

/** The key of one resource of one server in the explorer's maps. */
export const resourceKey = (serverId: string, uri: string) => `${serverId}\u0000${uri}`;

export class ResourceWatch implements ReactiveController {
  #hub?: McpHub;
  constructor(
    private readonly host: McpToolExplorerElement,
    private readonly reread: (serverId: string, uri: string) => void,
  ) {
    host.addController(this);
  }

  readonly #onUpdated = (e: McpResourceUpdatedEvent) => {
    const { serverId, uri } = e.detail;
    const key = resourceKey(serverId, uri);
    const h = this.host;
    h._updated = { ...h._updated, [key]: (h._updated[key] ?? 0) + 1 };
    if (h._resource?.serverId === serverId && h._resource.uri === uri && h._resource.state !== 'loading')
      this.reread(serverId, uri);
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
