// The explorer's Resources, Prompts, Skills and Log tabs are chunks of their own in the CDN build
// (the Tools tab stays in the element's chunk): each is imported the first time its tab is shown,
// or earlier when the pointer or focus reaches the tab. Where each chunk is comes from define.ts
// (`useTabImports`), so nothing the element's module imports reaches the tabs' modules (no import
// circle); a tab's module hands its panel over with `McpToolExplorerElement._definePanel()` as it
// runs (host.ts `TabPanel`: how to make its view for one explorer, its strings' English defaults,
// its styles). One load per page serves every explorer; a failed one is forgotten, so the next
// show tries again.
import { importOnce, rethrow } from '../../core/import-once.js';
import type { TabPanel } from './host.js';
import { STRINGS } from './strings.js';

export const TABS = ['tools', 'resources', 'prompts', 'skills', 'log'] as const;
export type Tab = (typeof TABS)[number];
/** The tabs whose panel is a chunk of its own. */
export type LazyTab = Exclude<Tab, 'tools'>;
/** How to import each lazy tab's module. */
export type TabImports = Readonly<Record<LazyTab, () => Promise<unknown>>>;

let given: TabImports | undefined;
let imports: Partial<Record<LazyTab, () => Promise<unknown>>> = {};

/** define.ts: where the tabs' modules are (given once, as the element is defined). */
export function useTabImports(table: TabImports): void {
  given = table;
  imports = { ...table };
}

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
  const load = imports[tab];
  if (!load) return Promise.reject(new Error(`the explorer's ${tab} tab is not registered: import its define.js`));
  loads[tab] ??= importOnce(
    () =>
      load().then(() => {
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
  const real = given?.[tab];
  if (!real) throw new Error(`the explorer's ${tab} tab is not registered`);
  imports[tab] = load ? () => load(real) : real;
}
