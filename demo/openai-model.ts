// Any OpenAI-compatible Chat Completions endpoint (OpenAI, G4F's API server, a local gateway…),
// streamed, with tool calls accumulated by the hub's OpenAIStreamAccumulator.
import { OpenAIStreamAccumulator } from '../src/index.js';
import type { ChatMessage, SampleInput } from './demo-model.js';

export interface OpenAISettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** One streamed model turn; `onText` receives the text so far; `extra` adds request fields. */
export async function openaiComplete(
  s: OpenAISettings,
  messages: ChatMessage[],
  tools: unknown[],
  onText: (text: string) => void,
  signal?: AbortSignal,
  extra: Record<string, unknown> = {},
): Promise<ChatMessage> {
  const res = await fetch(`${s.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}) },
    body: JSON.stringify({ model: s.model, messages, stream: true, ...(tools.length ? { tools } : {}), ...extra }),
    signal,
  });
  if (!res.ok || !res.body)
    throw new Error(`The model endpoint answered HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const acc = new OpenAIStreamAccumulator();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') continue;
      try {
        acc.push(JSON.parse(data));
        onText(acc.message().content ?? '');
      } catch {
        // a keep-alive or a malformed line: skip it
      }
    }
  }
  return acc.message() as ChatMessage;
}

/**
 * The endpoint answering a server's sampling request (`hub.setSamplingHandler`): the server's
 * system prompt and messages as a chat, no tools, `max_tokens` as the hub capped it.
 */
export async function openaiSample(
  s: OpenAISettings,
  input: SampleInput & { temperature?: number; signal?: AbortSignal },
): Promise<{ text: string; model: string }> {
  const messages: ChatMessage[] = [
    ...(input.systemPrompt ? [{ role: 'system' as const, content: input.systemPrompt }] : []),
    ...input.messages.map((m) => ({ role: m.role, content: m.text })),
  ];
  const extra = {
    max_tokens: input.maxTokens,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
  };
  const reply = await openaiComplete(s, messages, [], () => {}, input.signal, extra);
  return { text: reply.content ?? '', model: s.model || 'openai-compatible' };
}
