// OpenAI Chat Completions: https://platform.openai.com/docs/api-reference/chat/create
//   tools: [{ type: 'function', function: { name, description, parameters } }]
//   assistant message: { role: 'assistant', content, tool_calls: [{ id, type: 'function', function: { name, arguments } }] }
//   result: { role: 'tool', tool_call_id, content }
import { asObject, outcomeText, parseArguments } from './content.js';
import type { ProviderAdapter, ProviderToolCall } from './types.js';

function messageOf(message: unknown): Record<string, unknown> | undefined {
  const o = asObject(message);
  // a whole response: { choices: [{ message }] }
  const choice = Array.isArray(o?.choices) ? asObject((o!.choices as unknown[])[0]) : undefined;
  return asObject(choice?.message) ?? o;
}

export const openai: ProviderAdapter = {
  tools: (tools) =>
    tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    })),
  readCalls(message) {
    const calls = messageOf(message)?.tool_calls;
    if (!Array.isArray(calls)) return [];
    return calls.flatMap((c): ProviderToolCall[] => {
      const fn = asObject(asObject(c)?.function);
      if (!fn || typeof fn.name !== 'string') return [];
      return [{ id: String(asObject(c)!.id ?? ''), name: fn.name, ...parseArguments(fn.arguments), raw: c }];
    });
  },
  result: (call, outcome) => ({
    role: 'tool',
    tool_call_id: call.id,
    content: outcome.isError ? `Error: ${outcomeText(outcome)}` : outcomeText(outcome),
  }),
  messages: (results) => results,
  replyMessages: (reply) => {
    const m = messageOf(reply);
    return m ? [m] : [];
  },
};
