// What the explorer hands each of its parts (the tools tab, the lazy tabs, the resource watch):
// the element as a controller host and a few reads, and the base of a part with state of its own.
// The parts import this, never the element's module, so there is no import circle between the
// element and its parts; each part keeps its own state and asks the host to render when it changes.
import type { CSSResult, ReactiveControllerHost, TemplateResult } from 'lit';
import type { McpHub, ServerCatalogue, ServerConfig } from '../../core/index.js';

/** The element as its parts see it (all public members of `<mcp-tool-explorer>`). */
export interface ExplorerElement extends ReactiveControllerHost {
  readonly hub: McpHub;
  readonly serverId?: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly isConnected: boolean;
}

/** One server shown, with what it offers. */
export interface Shown {
  server: ServerConfig;
  catalogue: ServerCatalogue;
}

/** Marks of watched resources the server changed since they were last read (resource-watch.ts). */
export interface UpdateMarks {
  /** How many updates came for `serverId\0uri` since it was last read (0: none). */
  count(key: string): number;
  /** The resource was read: forget its updates. */
  clear(key: string): void;
}

export interface ExplorerContext {
  readonly host: ExplorerElement;
  /** The servers shown (one, or all) that have a catalogue. */
  shownServers(): Shown[];
  /** The resources the hub is subscribed to on a server. */
  subscriptions(serverId: string): readonly string[];
  readonly updates: UpdateMarks;
}

/** Look up one of a part's strings (the host's replacement if it gave one). */
export type Translate<S> = <K extends keyof S>(key: K) => S[K];

/** A lazy tab as one explorer shows it: made the first time it is shown, it keeps its own state. */
export interface TabView {
  render(tr: Translate<Record<string, string>>): TemplateResult;
  /** Resources: a watched resource changed; read it again if it is the one open. */
  reread?(serverId: string, uri: string): void;
}

/** What a lazy tab's module exports (tabs.ts loads it). */
export interface TabPanel {
  create(context: ExplorerContext): TabView;
  /** The English defaults of the strings only this tab shows. */
  strings: Record<string, string>;
  /** Rules only this tab's markup needs, added to each explorer's shadow root when first shown. */
  styles: readonly CSSResult[];
}

/**
 * A part of the explorer with state of its own (the Tools tab's state, each lazy tab's view): it
 * changes its own fields and has the explorer render again.
 */
export abstract class ExplorerPart {
  constructor(readonly context: ExplorerContext) {}

  /** Render again: this part's state changed. */
  protected changed(): void {
    this.context.host.requestUpdate();
  }
}

/** A string usable inside an id. */
export const idPart = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
