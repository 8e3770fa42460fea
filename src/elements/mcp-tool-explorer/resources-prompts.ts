// The Resources and Prompts tabs, one chunk: both list what a server offers besides tools and
// open an item into the result view, with the same strings and rules for that (contents.ts).
// Imported when either tab is first shown (tabs.ts).
import type { TabPanel } from './host.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { CONTENTS_STRINGS, contentsStyles } from './contents.js';
import { plainListStyles } from './plain-list.styles.js';
import { PROMPTS_STRINGS, promptsStyles, PromptsTab } from './prompts-panel.js';
import { RESOURCES_STRINGS, resourcesStyles, ResourcesTab } from './resources-panel.js';

export const resourcesPanel: TabPanel = {
  create: (context) => new ResourcesTab(context),
  strings: { ...CONTENTS_STRINGS, ...RESOURCES_STRINGS },
  styles: [plainListStyles, contentsStyles, resourcesStyles],
};
export const promptsPanel: TabPanel = {
  create: (context) => new PromptsTab(context),
  strings: { ...CONTENTS_STRINGS, ...PROMPTS_STRINGS },
  styles: [plainListStyles, contentsStyles, promptsStyles],
};
// handed over as the module runs (tabs.ts); the exports keep the bundler from dropping the
// module, which package.json does not list as having side effects
McpToolExplorerElement._definePanel('resources', resourcesPanel);
McpToolExplorerElement._definePanel('prompts', promptsPanel);
