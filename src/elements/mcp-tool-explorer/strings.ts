import { REVISION_STRINGS } from '../../internal/server-identity.js';

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

// The strings of the parts that are chunks of their own: declared here, so that the element's
// string type needs no import of those modules (they import this one).
/** The strings contents.ts brings (its constant holds the English defaults). */
export type ContentsStrings = {
  listing: string;
  image: string;
  copy: string;
  copied: string;
  audio: string;
  resourceLink: string;
  embeddedResource: string;
  binary: string;
  structured: string;
  noContent: string;
  enlarge: string;
  closeImage: string;
  bytes: string;
};
/** The strings resources-panel.ts brings (its constant holds the English defaults). */
export type ResourcesStrings = {
  noResources: string;
  templates: string;
  read: string;
  watch: string;
  updated: string;
  watchFailed: string;
  contentsOf: string;
};
/** The strings prompts-panel.ts brings (its constant holds the English defaults). */
export type PromptsStrings = {
  noPrompts: string;
  get: string;
  required: string;
};
/** The strings skills-panel.ts brings (its constant holds the English defaults). */
export type SkillsStrings = {
  noSkills: string;
  listingSkills: string;
  skillFiles: string;
  skillDynamic: string;
  bytes: string;
  useSkill: string;
  skillUsed: string;
};
/** The strings log-panel.ts brings (its constant holds the English defaults). */
export type LogStrings = {
  logServer: string;
  logShow: string;
  logKind: string;
  logKindAll: string;
  logKindServer: string;
  logKindProtocol: string;
  logKindBadge: string;
  logAskServer: string;
  logLevelSet: string;
  logCopy: string;
  logCopied: string;
  logCopyFailed: string;
  logClear: string;
  logEmpty: string;
  logNoMatch: string;
  logNoServer: string;
};
/** The strings tool-detail.ts brings (its constant holds the English defaults). */
export type DetailStrings = {
  readOnly: string;
  destructive: string;
  idempotent: string;
  openWorld: string;
  appOnly: string;
  modelOnly: string;
  hasView: string;
  inputSchema: string;
  outputSchema: string;
  copySchema: string;
  copied: string;
  tryIt: string;
  form: string;
  rawJson: string;
  argumentsJson: string;
  run: string;
  running: string;
  invalid: string;
  fixFields: string;
  notJson: string;
  on: string;
};

export type McpToolExplorerStrings = typeof STRINGS &
  DetailStrings &
  ContentsStrings &
  ResourcesStrings &
  PromptsStrings &
  SkillsStrings &
  LogStrings;

/** Look up one of the explorer's strings (the host's replacement if it gave one). */
export type Translate = <K extends keyof McpToolExplorerStrings>(key: K) => McpToolExplorerStrings[K];
