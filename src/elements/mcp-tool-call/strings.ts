// The card's user-visible strings (a host replaces any of them through `strings`), with the views'
// strings for what a server asks during the call (shared with <mcp-elicitation>) and the result's.
import { ANSWER_STRINGS } from '../../internal/answer-strings.js';
import { RESULT_STRINGS } from '../../internal/result-view.js';

export const TOOL_CALL_STRINGS = {
  pending: 'Pending',
  'awaiting-approval': 'Needs approval',
  'needs-sign-in': 'Needs sign-in',
  signInNeeded: 'The server asks you to sign in. The call continues once you have.',
  signIn: 'Sign in',
  running: 'Running',
  success: 'Done',
  error: 'Failed',
  denied: 'Denied',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
  on: 'on',
  arguments: 'Arguments',
  approvalQuestion: 'Allow the assistant to use {tool} on {server}?',
  approvalWhat: 'What it does:',
  approvalWith: 'With these details:',
  approvalNoArgs: 'It needs no details.',
  approvalCut: '… {n} more characters not shown (the arguments below hold them all)',
  allowOnce: 'Allow once',
  alwaysAllow: 'Always allow this tool',
  alwaysAllowSwitches:
    '“Always allow” trusts this tool and switches the assistant from asking every time to asking only for tools it does not trust.',
  alwaysAllowTrusts: '“Always allow” adds this tool to the tools the assistant runs without asking.',
  deny: 'Deny',
  cancel: 'Cancel call',
  runAgain: 'Run again',
  runAgainNote:
    'Its result is unknown. “Run again” starts it anew with the same arguments, asking first if your approval settings say so.',
  progressOf: '{done} of {total} ({percent}%)',
  progressSoFar: '{done} so far',
  elapsed: 'for {time}',
  waitingForYou: 'waiting for you',
  mayChange: 'It may change or delete your data.',
  mayChangeSoft: 'It may change things, but not delete them.',
  openWorld: 'It may reach websites or services outside this server.',
  readOnly: 'The server says it only reads information.',
  deniedByUser: 'You denied this call, so it did not run.',
  errorDetails: 'Details',
  progress: 'Progress',
  duration: 'took',
  result: 'Result',
  noCall: 'No tool call.',
  ...RESULT_STRINGS,
  finished: 'Tool call finished:',
  // what the server asks during the call (forms, URLs, sampling): shared with <mcp-elicitation>
  ...ANSWER_STRINGS,
};
export type McpToolCallStrings = typeof TOOL_CALL_STRINGS;
