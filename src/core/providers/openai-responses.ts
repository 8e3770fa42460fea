// OpenAI Responses API: https://platform.openai.com/docs/api-reference/responses/create
//   tools: [{ type: 'function', name, description, parameters }]
//   output items: { type: 'function_call', id, call_id, name, arguments }
//   result item: { type: 'function_call_output', call_id, output }
import { asObject, outcomeText, parseArguments } from './content.js';
import type { ProviderAdapter, ProviderToolCall } from './types.js';

function itemsOf(message: unknown): unknown[] {
  if (Array.isArray(message)) return message;
  const o = asObject(message);
  if (Array.isArray(o?.output)) return o!.output as unknown[];
  return o ? [o] : [];
}

export const openaiResponses: ProviderAdapter = {
  tools: (tools) =>
    tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.inputSchema })),
  readCalls(message) {
    return itemsOf(message).flatMap((i): ProviderToolCall[] => {
      const o = asObject(i);
      if (o?.type !== 'function_call' || typeof o.name !== 'string') return [];
      return [{ id: String(o.call_id ?? o.id ?? ''), name: o.name, ...parseArguments(o.arguments), raw: i }];
    });
  },
  result: (call, outcome) => ({
    type: 'function_call_output',
    call_id: call.id,
    output: outcome.isError ? `Error: ${outcomeText(outcome)}` : outcomeText(outcome),
  }),
  messages: (results) => results,
  replyMessages: (reply) => itemsOf(reply),
};
