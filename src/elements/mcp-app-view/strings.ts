// The user-visible strings of <mcp-app-view> (replaceable through its `strings` property).
export const STRINGS = {
  loading: 'Loading the view…',
  failed: 'The view could not be shown:',
  chunkFailed: 'The view code could not be loaded. Reload the page to try again.',
  appCall: 'This view wants to run “{tool}”.',
  waiting: '({n} calls waiting)',
  allowOnce: 'Allow once',
  alwaysAllow: 'Always for this view',
  deny: 'Deny',
  openLink: 'Open this link in a new tab?',
  download: 'This view offers a file:',
  save: 'Download',
  open: 'Open',
  cancel: 'Cancel',
  fullscreen: 'Full screen',
  exitFullscreen: 'Exit full screen',
  pip: 'Picture in picture',
  inline: 'Back in the chat',
  interrupted: 'The call was interrupted (the page was closed or reloaded): the view shows no result.',
  cancelled: 'The call did not finish: {reason}',
  opaque: 'Shown without a sandbox origin: this view has no storage and runs under this page’s policy.',
  view: 'View from {server}',
};
export type McpAppViewStrings = typeof STRINGS;
export type Translate = (key: keyof McpAppViewStrings) => string;
