// One streamed call of an OpenAI-compatible Chat Completions endpoint: content deltas are passed
// on as they arrive, tool calls accumulated with the core's OpenAIStreamAccumulator.
import { OpenAIStreamAccumulator } from '../core/providers/streams.js';

/** An OpenAI-compatible model endpoint. */
export interface ModelOptions {
  /** The API base, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never logged or returned. */
  apiKey?: string;
  /** Extra request fields (temperature, …). */
  extra?: Record<string, unknown>;
  /** fetch for the model endpoint. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Thrown when the model endpoint fails; the message names the status, never the key. */
export class ModelError extends Error {
  override name = 'ModelError';
}

/** Stream one completion; `onDelta` gets each content fragment. Resolves with the assistant message. */
export async function streamCompletion(
  model: ModelOptions,
  messages: unknown[],
  tools: unknown[],
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<ReturnType<OpenAIStreamAccumulator['message']>> {
  const doFetch = model.fetch ?? fetch;
  const res = await doFetch(`${model.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}),
    },
    body: JSON.stringify({
      ...model.extra,
      model: model.model,
      messages,
      stream: true,
      ...(tools.length ? { tools } : {}),
    }),
    signal,
  });
  if (!res.ok || !res.body) throw new ModelError(`the model endpoint answered ${res.status}`);
  const acc = new OpenAIStreamAccumulator();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r?\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') continue;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        throw new ModelError('the model endpoint sent a chunk that is not JSON');
      }
      acc.push(chunk);
      const delta = (chunk as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
      if (typeof delta === 'string' && delta) onDelta(delta);
    }
  }
  return acc.message();
}
