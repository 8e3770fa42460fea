// Anthropic Messages: https://docs.anthropic.com/en/api/messages
//   tools: [{ name, description, input_schema }]
//   assistant content blocks: { type: 'tool_use', id, name, input }
//   result: one user message, content [{ type: 'tool_result', tool_use_id, content: [text | image blocks], is_error }]
import { asObject, outcomeText } from './content.js';
import type { ProviderAdapter, ProviderToolCall } from './types.js';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export const anthropic: ProviderAdapter = {
  tools: (tools) => tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  readCalls(message) {
    const content = asObject(message)?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((b): ProviderToolCall[] => {
      const o = asObject(b);
      if (o?.type !== 'tool_use' || typeof o.name !== 'string') return [];
      const input = asObject(o.input);
      return [
        {
          id: String(o.id ?? ''),
          name: o.name,
          ...(input ? { arguments: input } : { argumentsError: 'The input must be a JSON object.' }),
          raw: b,
        },
      ];
    });
  },
  result(call, outcome) {
    const images = outcome.content.filter((c) => c.type === 'image' && IMAGE_TYPES.has(c.mimeType));
    const text = outcomeText({ ...outcome, content: outcome.content.filter((c) => !images.includes(c)) });
    const blocks: unknown[] = [];
    if (text || images.length === 0) blocks.push({ type: 'text', text: text || '(no output)' });
    for (const i of images)
      if (i.type === 'image')
        blocks.push({ type: 'image', source: { type: 'base64', media_type: i.mimeType, data: i.data } });
    return {
      type: 'tool_result',
      tool_use_id: call.id,
      content: blocks,
      ...(outcome.isError ? { is_error: true } : {}),
    };
  },
  messages: (results) => (results.length ? [{ role: 'user', content: results }] : []),
  replyMessages(reply) {
    const o = asObject(reply);
    return o && Array.isArray(o.content) ? [{ role: 'assistant', content: o.content }] : [];
  },
};
