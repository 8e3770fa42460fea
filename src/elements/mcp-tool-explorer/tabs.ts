// The explorer's Resources, Prompts, Skills and Log tabs are chunks of their own in the CDN build (the
// Tools tab stays in the element's chunk): each is imported the first time its tab is shown, or
// earlier when the pointer or focus reaches the tab. A tab's module hands its panel over with
// `McpToolExplorerElement._definePanel()` when it runs: its renderer, its strings' English
// defaults and its styles. One load per page serves every explorer; a failed one is forgotten,
// so the next show tries again.
import type { CSSResult, TemplateResult } from 'lit';
import { importOnce, rethrow } from '../../core/import-once.js';
import type { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { STRINGS, type Translate } from './strings.js';

export const TABS = ['tools', 'resources', 'prompts', 'skills', 'log'] as const;
export type Tab = (typeof TABS)[number];
/** The tabs whose panel is a chunk of its own. */
export type LazyTab = Exclude<Tab, 'tools'>;

/** What a tab's module brings. */
export interface TabPanel {
  render: (el: McpToolExplorerElement, tr: Translate) => TemplateResult;
  /** The English defaults of the strings only this tab shows. */
  strings: Record<string, string>;
  /** Rules only this tab's markup needs, added to each explorer's shadow root when first shown. */
  styles: readonly CSSResult[];
  /** Resources: read the open resource again (the server said it changed). */
  reread?: (el: McpToolExplorerElement, serverId: string, uri: string) => void;
}

const IMPORTS: Readonly<Record<LazyTab, () => Promise<unknown>>> = {
  resources: () => import('./resources-prompts.js'),
  prompts: () => import('./resources-prompts.js'),
  skills: () => import('./skills-panel.js'),
  log: () => import('./log-panel.js'),
};
const imports = { ...IMPORTS };

/** What each tab's module handed over when it ran. */
const defined: Partial<Record<LazyTab, TabPanel>> = {};
/** The panels whose load has completed. */
const panels: Partial<Record<LazyTab, TabPanel>> = {};
const loads: Partial<Record<LazyTab, () => Promise<TabPanel>>> = {};

/** Called by a tab's module as it runs (through the element class: see `_definePanel`). */
export function definePanel(tab: LazyTab, panel: TabPanel): void {
  defined[tab] = panel;
  // the element's defaults (`t()` falls back to them) are complete for this tab from now on
  Object.assign(STRINGS, panel.strings);
}

/** A lazy tab's panel once its chunk has arrived. */
export const loadedPanel = (tab: LazyTab): TabPanel | undefined => panels[tab];

/** Import a tab's chunk (once); rejects when it cannot be fetched, and the next call tries again. */
export function loadPanel(tab: LazyTab): Promise<TabPanel> {
  const ready = panels[tab];
  if (ready) return Promise.resolve(ready);
  loads[tab] ??= importOnce(
    () =>
      imports[tab]().then(() => {
        const panel = defined[tab];
        if (!panel) throw new Error(`the ${tab} tab's module defined no panel`);
        return (panels[tab] = panel);
      }),
    rethrow(),
  );
  return loads[tab]();
}

/**
 * Tests: forget that a tab's chunk was loaded and import it through `load` from now on (given
 * the real import: a slow or failing fetch); without `load`, the real import again. @internal
 */
export function replaceTabImport(tab: LazyTab, load?: (real: () => Promise<unknown>) => Promise<unknown>): void {
  delete panels[tab];
  delete loads[tab];
  imports[tab] = load ? () => load(IMPORTS[tab]) : IMPORTS[tab];
}
