// The Tools tab's state: the search, the list's keyboard row and scroll, the selected tool and its
// "Try it" arguments and run. The tab owns it (the list and the detail render from it and change
// it through `set`, which asks the explorer to render); the element only holds the object.
import { loadValidator, validateArguments, validatorLoaded, type Tool } from '../../core/index.js';
import { initialValue } from '../../internal/schema-model.js';
import type { McpSchemaForm } from '../../internal/schema-form.js';
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

  async copySchema(tool: Tool): Promise<void> {
    const text = JSON.stringify(
      { inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) },
      null,
      2,
    );
    try {
      await navigator.clipboard.writeText(text);
      this.set({ copied: true });
    } catch {
      this.set({ copied: false });
    }
  }

  /** Current arguments: from the form, or parsed from the raw JSON (`notJson`: the error's prefix). */
  currentArgs(notJson: string): { value?: Record<string, unknown>; error?: string } {
    if (!this.raw) return { value: (this.args ?? {}) as Record<string, unknown> };
    try {
      const v = JSON.parse(this.rawText);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: `${notJson} an object is required` };
      return { value: v };
    } catch (e) {
      return { error: `${notJson} ${(e as Error).message}` };
    }
  }

  async runTool(entry: Entry, notJson: string): Promise<void> {
    const args = this.currentArgs(notJson);
    if (!args.value) return;
    // Run is when the form shows every problem; nothing is sent while there is one
    this.set({ tried: true });
    const form = this.context.host.renderRoot.querySelector('mcp-schema-form') as McpSchemaForm | null;
    if (!this.raw && form && !form.reportValidity()) return;
    // Run is disabled from here on, the wait for the validator included (it comes with the form,
    // so this wait is rare); the hub checks again before anything is sent, so a validator that
    // could not load stops nothing here
    const before = this.run;
    this.set({ run: { state: 'running' } });
    if (!validatorLoaded()) await loadValidator().catch(() => {});
    if (validatorLoaded() && validateArguments(entry.tool, args.value)) {
      this.set({ run: before }); // nothing ran; the problem shows where the arguments are
      return;
    }
    try {
      // the card follows the call from the moment it exists: progress, Cancel, result, error
      const record = await this.context.host.hub.callTool({
        serverId: entry.serverId,
        tool: entry.tool.name,
        arguments: args.value,
        source: 'user',
        onCall: (r) => this.set({ run: { state: 'running', callId: r.id } }),
      });
      this.set({ run: { state: 'done', callId: record.id } });
    } catch (err) {
      this.set({ run: { state: 'done', error: (err as Error).message } });
    }
  }
}
