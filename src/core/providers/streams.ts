import { asObject } from './content.js';

/**
 * Accumulates OpenAI Chat Completions stream chunks
 * (https://platform.openai.com/docs/api-reference/chat-streaming) into one assistant message
 * with complete `tool_calls`, ready for `hub.runToolCalls('openai', acc.message())`.
 */
export class OpenAIStreamAccumulator {
  #content = '';
  #calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  /** Add one parsed chunk (`chat.completion.chunk`). */
  push(chunk: unknown): void {
    const choice = asObject((asObject(chunk)?.choices as unknown[] | undefined)?.[0]);
    const delta = asObject(choice?.delta);
    if (!delta) return;
    if (typeof delta.content === 'string') this.#content += delta.content;
    if (!Array.isArray(delta.tool_calls)) return;
    for (const d of delta.tool_calls) {
      const o = asObject(d);
      if (!o) continue;
      const index = typeof o.index === 'number' ? o.index : this.#calls.length;
      const call = (this.#calls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (typeof o.id === 'string') call.id = o.id;
      const fn = asObject(o.function);
      if (typeof fn?.name === 'string') call.function.name += fn.name;
      if (typeof fn?.arguments === 'string') call.function.arguments += fn.arguments;
    }
  }
  /** The assistant message so far. */
  message(): { role: 'assistant'; content: string | null; tool_calls?: OpenAIStreamAccumulator['calls'] } {
    const calls = this.calls;
    return { role: 'assistant', content: this.#content || null, ...(calls.length ? { tool_calls: calls } : {}) };
  }
  get calls() {
    return this.#calls.filter(Boolean).map((c) => ({ ...c, function: { ...c.function } }));
  }
}

/**
 * Accumulates Anthropic Messages stream events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming) into one assistant message,
 * joining `input_json_delta` fragments into each `tool_use` block's `input`.
 */
export class AnthropicStreamAccumulator {
  #blocks: Record<string, unknown>[] = [];
  #json = new Map<number, string>();
  /** Add one parsed stream event. */
  push(event: unknown): void {
    const e = asObject(event);
    if (!e) return;
    const index = typeof e.index === 'number' ? e.index : -1;
    if (e.type === 'content_block_start') {
      const block = asObject(e.content_block);
      if (block) this.#blocks[index] = { ...block };
    } else if (e.type === 'content_block_delta') {
      const d = asObject(e.delta);
      const block = this.#blocks[index];
      if (!d || !block) return;
      if (d.type === 'text_delta' && typeof d.text === 'string') block.text = String(block.text ?? '') + d.text;
      if (d.type === 'input_json_delta' && typeof d.partial_json === 'string')
        this.#json.set(index, (this.#json.get(index) ?? '') + d.partial_json);
    } else if (e.type === 'content_block_stop') {
      this.#finish(index);
    }
  }
  #finish(index: number) {
    const block = this.#blocks[index];
    const json = this.#json.get(index);
    if (!block || json === undefined) return;
    try {
      block.input = json.trim() ? JSON.parse(json) : {};
    } catch {
      // leave the raw text: runToolCalls tells the model its input was not a JSON object
      block.input = json;
    }
    this.#json.delete(index);
  }
  /** The assistant message so far (`{ role: 'assistant', content }`). */
  message(): { role: 'assistant'; content: Record<string, unknown>[] } {
    for (const i of [...this.#json.keys()]) this.#finish(i);
    return { role: 'assistant', content: this.#blocks.filter(Boolean).map((b) => ({ ...b })) };
  }
}
