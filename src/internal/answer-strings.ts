// The user-visible strings of the views that answer servers (elicitation forms and URLs, sampling
// approval and review). `<mcp-elicitation>` and `<mcp-tool-call>` include them in their own
// `strings`, so a host replaces them where it replaces the rest. `{server}`, `{domain}`,
// `{model}` and `{limit}` are filled in.
import { REQUIRED_MESSAGE } from './required.js';

export const ANSWER_STRINGS = {
  formTitle: '{server} asks for information',
  formPrivacy: 'What you enter goes to {server} only; it is not saved.',
  accept: 'Accept',
  decline: 'Decline',
  cancelRequest: 'Cancel',
  required: 'required',
  noChoice: 'None',
  fixFields: 'Check the highlighted fields.',
  fieldRequired: REQUIRED_MESSAGE,
  fieldEmail: 'Enter an email address, like name@example.com.',
  fieldUri: 'Enter a full address, like https://example.com.',
  fieldDate: 'Enter a date.',
  fieldDateTime: 'Enter a date and time.',
  fieldNumber: 'Enter a number.',
  fieldInteger: 'Enter a whole number.',
  fieldMin: 'Enter {limit} or more.',
  fieldMax: 'Enter {limit} or less.',
  fieldMinLength: 'Enter at least {limit} characters.',
  fieldMaxLength: 'Enter at most {limit} characters.',
  fieldMinItems: 'Choose at least {limit}.',
  fieldMaxItems: 'Choose at most {limit}.',
  fieldOption: 'Choose one of the options.',
  urlTitle: '{server} asks you to open a page',
  urlOpens: 'This opens a page on',
  urlCheck: 'Check the address before you open it. It opens in a new tab.',
  urlAddress: 'Full address',
  open: 'Open {domain}',
  answeredAccepted: 'You answered {server}.',
  answeredDeclined: 'You declined the request from {server}.',
  answeredCancelled: 'The request from {server} was cancelled.',
  answeredCompleted: '{server} says the page flow finished.',
  samplingTitle: '{server} asks your model for an answer',
  samplingExplain: 'Nothing is sent to your model until you approve.',
  samplingPrompt: 'What {server} asked',
  systemPrompt: 'System prompt',
  maxTokens: 'Max tokens',
  roleUser: 'User',
  roleAssistant: 'Assistant',
  approve: 'Approve',
  denySampling: 'Deny',
  generating: 'Waiting for your model…',
  reviewLabel: 'Answer from {model} (you can edit it before it is sent)',
  send: 'Send',
  dontSend: "Don't send",
  samplingSent: 'Sent the answer to {server}.',
  samplingDenied: 'Not sent: you declined the request from {server}.',
  samplingFailed: 'The model failed.',
  samplingCancelled: '{server} withdrew its request.',
  requests: 'Requests from servers',
  viewsFailed: 'A server is waiting for your answer, but this part of the page could not be loaded.',
  viewsRetry: 'Try again',
};
export type AnswerStrings = typeof ANSWER_STRINGS;

/** Fill `{name}` placeholders in a string. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (all, k: string) => (k in values ? String(values[k]) : all));
}
