import { REVISION_STRINGS } from '../../internal/server-identity.js';
import type { LOG_STRINGS } from './log-panel.js';
import type { PROMPTS_STRINGS } from './prompts-panel.js';
import type { CONTENTS_STRINGS } from './contents.js';
import type { RESOURCES_STRINGS } from './resources-panel.js';
import type { SKILLS_STRINGS } from './skills-panel.js';
import type { DETAIL_STRINGS } from './tool-detail.js';

/**
 * The explorer's user-visible strings (English) in the element's chunk: the tool list's and the
 * tabs' names. The selected tool's panel's and the other tabs' strings come with their chunks
 * (tool-detail.ts, tabs.ts). Hosts replace any through `strings`.
 */
export const STRINGS = {
  tools: 'Tools',
  resources: 'Resources',
  prompts: 'Prompts',
  skills: 'Skills',
  search: 'Search tools',
  noTools: 'No tools. Connect a server to discover its tools.',
  noMatch: 'No tool matches.',
  count: 'tools',
  /** The count of one tool ("1 tool"). */
  countOne: 'tool',
  choose: 'Choose a tool to see its details and try it.',
  log: 'Log',
  tabLoading: 'Loading…',
  tabFailed: 'Could not load this tab. Show it again to retry.',
  aboutServers: 'About the servers',
  instructions: 'Instructions from the server',
  website: 'Website',
  protocol: 'Protocol',
  ...REVISION_STRINGS,
};
export type McpToolExplorerStrings = typeof STRINGS &
  typeof DETAIL_STRINGS &
  typeof CONTENTS_STRINGS &
  typeof RESOURCES_STRINGS &
  typeof PROMPTS_STRINGS &
  typeof SKILLS_STRINGS &
  typeof LOG_STRINGS;

/** Look up one of the explorer's strings (the host's replacement if it gave one). */
export type Translate = <K extends keyof McpToolExplorerStrings>(key: K) => McpToolExplorerStrings[K];
