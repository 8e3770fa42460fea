/** The explorer's user-visible strings (English); hosts replace any through `strings`. */
export const STRINGS = {
  tools: 'Tools',
  resources: 'Resources',
  prompts: 'Prompts',
  search: 'Search tools',
  noTools: 'No tools. Connect a server to discover its tools.',
  noMatch: 'No tool matches.',
  count: 'tools',
  choose: 'Choose a tool to see its details and try it.',
  readOnly: 'read-only',
  destructive: 'destructive',
  idempotent: 'idempotent',
  openWorld: 'open world',
  inputSchema: 'Input schema',
  outputSchema: 'Output schema',
  copySchema: 'Copy schema',
  copied: 'Copied',
  tryIt: 'Try it',
  form: 'Form',
  rawJson: 'Raw JSON',
  argumentsJson: 'Arguments (JSON)',
  run: 'Run',
  running: 'Running…',
  invalid: 'Arguments do not match the schema:',
  fixFields: 'Fill in the marked fields, then run it again.',
  notJson: 'Not valid JSON:',
  on: 'on',
  noResources: 'No resources.',
  listing: 'Still listing…',
  templates: 'Resource templates',
  read: 'Read',
  watch: 'Watch',
  updated: 'Updated',
  watchFailed: 'Could not change the watch:',
  noPrompts: 'No prompts.',
  get: 'Get',
  image: 'Image',
  audio: 'Audio',
  resourceLink: 'Resource',
  embeddedResource: 'Embedded resource',
  binary: 'binary data',
  structured: 'Structured result',
  noContent: 'No content.',
  bytes: 'bytes',
  contentsOf: 'Contents of',
  log: 'Log',
  logServer: 'Server',
  logShow: 'Lowest level shown',
  logAskServer: 'Ask the server to send from',
  logLevelSet: 'The server was asked to send messages from that level.',
  logCopy: 'Copy log',
  logCopied: 'Copied',
  logCopyFailed: 'Could not copy: the browser did not allow it.',
  logClear: 'Clear log',
  logEmpty: 'No log messages from this server yet.',
  logNoMatch: 'No message at this level or above.',
  logNoServer: 'No servers.',
};
export type McpToolExplorerStrings = typeof STRINGS;

/** Look up one of the explorer's strings (the host's replacement if it gave one). */
export type Translate = <K extends keyof McpToolExplorerStrings>(key: K) => McpToolExplorerStrings[K];

/** A string usable inside an id. */
export const idPart = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

/** Inline raster images only: anything else (SVG, remote URLs) is never shown. */
export const RASTER = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+=*$/;
