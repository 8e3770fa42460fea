// The Tools tab's state: the search, the list's keyboard row and scroll, the selected tool and its
// "Try it" arguments and run. The tab owns it (the list and the detail render from it and change
// it through `set`, which asks the explorer to render; the detail's actions are in its own chunk,
// tool-detail.ts); the element only holds the object.
import type { Tool } from '../../core/index.js';
import { initialValue } from '../../internal/schema-model.js';
import { ExplorerPart } from './host.js';

/** One tool as the explorer lists it. */
export interface Entry {
  key: string;
  serverId: string;
  serverName: string;
  tool: Tool;
  /** Lower-cased name, title and description, for search. */
  haystack: string;
}

export interface ToolsFields {
  query: string;
  /** The selected tool (`serverId\0name`). */
  selected?: string;
  /** The list's keyboard row. */
  active: number;
  scroll: number;
  args: unknown;
  raw: boolean;
  rawText: string;
  run?: { state: 'running' | 'done'; callId?: string; error?: string };
  /** Run was pressed for the selected tool: every problem shows. */
  tried: boolean;
  copied: boolean;
}

export class ToolsState extends ExplorerPart implements Readonly<ToolsFields> {
  query = '';
  selected?: string;
  active = 0;
  scroll = 0;
  args: unknown = {};
  raw = false;
  rawText = '{}';
  run?: ToolsFields['run'];
  tried = false;
  copied = false;
  #entries?: { key: unknown[]; list: Entry[] };
  #filtered?: { entries: Entry[]; query: string; list: Entry[] };

  /** Change some fields and render. */
  set(patch: Partial<ToolsFields>): void {
    Object.assign(this, patch);
    this.changed();
  }

  /** Every tool shown, memoised on the shown servers' catalogues. */
  get entries(): Entry[] {
    const shown = this.context.shownServers();
    const key = shown.flatMap(({ server, catalogue }) => [server, catalogue]);
    const last = this.#entries;
    if (last && last.key.length === key.length && last.key.every((k, i) => k === key[i])) return last.list;
    const list = shown.flatMap(({ server, catalogue }) =>
      catalogue.tools.map((tool) => ({
        key: `${server.id}\u0000${tool.name}`,
        serverId: server.id,
        serverName: server.name,
        tool,
        haystack: `${tool.name}\n${tool.title ?? ''}\n${(tool.description ?? '').slice(0, 2000)}`.toLowerCase(),
      })),
    );
    this.#entries = { key, list };
    return list;
  }

  /** The tools matching the search. */
  get filtered(): Entry[] {
    const entries = this.entries;
    const q = this.query.trim().toLowerCase();
    if (this.#filtered && this.#filtered.entries === entries && this.#filtered.query === q) return this.#filtered.list;
    const terms = q.split(/\s+/).filter(Boolean);
    const list = terms.length ? entries.filter((e) => terms.every((t) => e.haystack.includes(t))) : entries;
    this.#filtered = { entries, query: q, list };
    return list;
  }

  /** Show a tool's details with fresh "Try it" arguments. */
  select(entry: Entry): void {
    const args = initialValue(entry.tool.inputSchema) ?? {};
    this.set({
      selected: entry.key,
      args,
      rawText: JSON.stringify(args, null, 2),
      run: undefined,
      tried: false,
      copied: false,
    });
  }
}
