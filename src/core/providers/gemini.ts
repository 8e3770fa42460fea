// Gemini generateContent: https://ai.google.dev/api/caching#Tool and https://ai.google.dev/api/caching#Schema
//   tools: [{ functionDeclarations: [{ name, description, parameters: Schema }] }]
//   model content: { role: 'model', parts: [{ functionCall: { id?, name, args } }] }
//   result: { role: 'user', parts: [{ functionResponse: { id?, name, response: { result } | { error } } }] }
import { asObject, outcomeText } from './content.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { ProviderAdapter, ProviderToolCall } from './types.js';

function contentOf(message: unknown): Record<string, unknown> | undefined {
  const o = asObject(message);
  const cand = Array.isArray(o?.candidates) ? asObject((o!.candidates as unknown[])[0]) : undefined;
  return asObject(cand?.content) ?? o;
}

export const gemini: ProviderAdapter = {
  tools(tools) {
    if (tools.length === 0) return [];
    return [
      {
        functionDeclarations: tools.map((t) => {
          const params = toGeminiSchema(t.inputSchema);
          const empty = !params.properties || Object.keys(params.properties as object).length === 0;
          // Gemini rejects an OBJECT with no properties: a tool without arguments has no parameters
          return { name: t.name, description: t.description, ...(empty ? {} : { parameters: params }) };
        }),
      },
    ];
  },
  readCalls(message) {
    const parts = contentOf(message)?.parts;
    if (!Array.isArray(parts)) return [];
    return parts.flatMap((p, i): ProviderToolCall[] => {
      const fc = asObject(asObject(p)?.functionCall);
      if (!fc || typeof fc.name !== 'string') return [];
      const args = fc.args === undefined ? {} : asObject(fc.args);
      return [
        {
          id: typeof fc.id === 'string' ? fc.id : `call-${i}`,
          name: fc.name,
          ...(args ? { arguments: args } : { argumentsError: 'The args must be a JSON object.' }),
          raw: p,
        },
      ];
    });
  },
  result(call, outcome) {
    const fc = asObject(asObject(call.raw)?.functionCall);
    const text = outcomeText(outcome);
    const response = outcome.isError
      ? { error: text }
      : outcome.structuredContent && !outcome.content.some((c) => c.type === 'text')
        ? { result: outcome.structuredContent }
        : { result: text };
    return { functionResponse: { ...(typeof fc?.id === 'string' ? { id: fc.id } : {}), name: call.name, response } };
  },
  messages: (results) => (results.length ? [{ role: 'user', parts: results }] : []),
  replyMessages(reply) {
    const c = contentOf(reply);
    return c && Array.isArray(c.parts) ? [{ role: 'model', parts: c.parts }] : [];
  },
};
