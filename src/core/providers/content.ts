import type { ToolOutcome } from './types.js';

const MAX_TEXT = 100_000;

/** The outcome as plain text, for providers whose tool results are text only. */
export function outcomeText(outcome: ToolOutcome): string {
  const parts: string[] = [];
  for (const c of outcome.content) {
    switch (c.type) {
      case 'text':
        parts.push(c.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${c.type} ${c.mimeType}, ${Math.round((c.data.length * 3) / 4)} bytes, shown to the user]`);
        break;
      case 'resource_link':
        parts.push(
          `[resource link: ${c.name}${c.title ? ` (${c.title})` : ''} ${c.uri}${c.description ? ` — ${c.description}` : ''}]`,
        );
        break;
      case 'resource': {
        const r = c.resource as { uri: string; text?: string; mimeType?: string };
        parts.push(
          typeof r.text === 'string'
            ? `[resource ${r.uri}]\n${r.text}`
            : `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ''}, binary]`,
        );
        break;
      }
    }
  }
  if (parts.length === 0 && outcome.structuredContent) parts.push(JSON.stringify(outcome.structuredContent));
  let text = parts.join('\n');
  if (outcome.isError && !text) text = 'The tool reported an error.';
  if (text.length > MAX_TEXT)
    text = `${text.slice(0, MAX_TEXT)}\n[… truncated, ${text.length - MAX_TEXT} more characters]`;
  return text;
}

/** Parse JSON arguments as providers send them (a string); an object is taken as is. */
export function parseArguments(raw: unknown): { arguments?: Record<string, unknown>; argumentsError?: string } {
  if (raw === undefined || raw === null || raw === '') return { arguments: {} };
  let v = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch (e) {
      return { argumentsError: `The arguments are not valid JSON (${(e as Error).message}). Send one JSON object.` };
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { argumentsError: 'The arguments must be a JSON object.' };
  return { arguments: v as Record<string, unknown> };
}

export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
