// The demo's "backend mode" (issue 24): with `?backend=<chat URL>` in the page's address (`npm
// start` prints it), a turn is one chat request to the backend handler of mcp-elements/server
// (scripts/demo-backend.mjs): the page sends the conversation and its servers (`mcp_servers`),
// the backend discovers their tools, runs the demo model and the tool calls, and streams back
// what happened and the answer. The page's own hub only lists the servers here.
import type { McpHub } from '../src/index.js';
import type { ChatMessage } from './demo-model.js';

/** The backend's chat URL when the page runs in backend mode (`?backend=`), else undefined. */
export function backendUrl(): string | undefined {
  const given = new URLSearchParams(location.search).get('backend');
  if (!given) return undefined;
  try {
    const url = new URL(given);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** What the backend reports as a turn runs (its SSE events). */
export interface BackendEvents {
  /** The answer so far (each delta appended). */
  onText?: (text: string) => void;
  /** A tool call the backend routed: `Server__tool`, or a built-in tool's name. */
  onTool?: (name: string) => void;
  /** A server the backend could not use (it goes on without it). */
  onServerFailed?: (name: string, error: string) => void;
}

/**
 * One turn through the backend: the servers the assistant may use that need no credentials of
 * the page (the backend gets a request's headers, never the page's vault), the conversation,
 * and the streamed answer. Resolves with the final assistant message.
 */
export async function runOnBackend(
  url: string,
  hub: McpHub,
  assistantId: string,
  messages: readonly ChatMessage[],
  signal: AbortSignal,
  events: BackendEvents = {},
): Promise<ChatMessage> {
  const allowed = hub.assistants.get(assistantId).servers;
  const servers = hub.servers
    .list()
    .filter((s) => s.enabled && s.auth.type === 'none' && (allowed === 'all' || s.id in allowed))
    .map((s) => ({ name: s.name, url: s.url }));
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages, mcp_servers: servers }),
    signal,
  });
  if (!response.ok || !response.body) {
    const detail = await response.text().catch(() => '');
    throw new Error(`The backend answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  let text = '';
  let final: ChatMessage | undefined;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      const d = JSON.parse(data) as Record<string, unknown>;
      if (event === 'delta') events.onText?.((text += String(d.content ?? '')));
      else if (event === 'tool') events.onTool?.(String(d.name));
      else if (event === 'server' && d.status === 'failed') events.onServerFailed?.(String(d.name), String(d.error));
      else if (event === 'done') final = d.message as ChatMessage;
      else if (event === 'error') throw new Error(`The backend failed: ${String(d.error)}`);
    }
  }
  return final ?? { role: 'assistant', content: text };
}
