/**
 * The demo's built-in offline model. Deterministic: it reads the last user message (or the tool
 * results it just received) and answers in OpenAI Chat Completions format, so the page runs the
 * same `toolsFor` / `runToolCalls` loop it would run with a real model.
 *
 * What it understands (case-insensitive), and the server-everything tool it calls:
 *   "echo <text>"                      → echo { message: <text> }
 *   "add <a> and <b>"                  → get-sum { a, b }
 *   "run a long task" / "long running" → trigger-long-running-operation { duration: 5, steps: 5 }
 *   "show me an image"                 → get-tiny-image {}
 *   "read resource <n>"                → get-resource-reference { resourceId: <n> }
 *   "ask me …" / "my details"          → trigger-elicitation-request {} (the server asks for a form)
 *   "ask the model <text>"             → trigger-sampling-request { prompt: <text>, maxTokens: 100 }
 *                                        (the server asks this page's model: see demoSample)
 *   "start a job <text>"               → job { text } on the demo's Jobs server (runs as a task)
 * Anything else gets a short help text. After tool results it answers from them: the text the
 * tool returned, or what went wrong (denied, failed, cancelled).
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
type OpenAITool = { type: 'function'; function: { name: string } };

const RULES: { pattern: RegExp; tool: string; args: (m: RegExpMatchArray) => Record<string, unknown> }[] = [
  { pattern: /\becho\s+(.+)/i, tool: 'echo', args: (m) => ({ message: m[1].trim() }) },
  {
    pattern: /\badd\s+(-?\d+(?:\.\d+)?)\s+(?:and|\+|to)\s+(-?\d+(?:\.\d+)?)/i,
    tool: 'get-sum',
    args: (m) => ({ a: Number(m[1]), b: Number(m[2]) }),
  },
  {
    pattern: /\b(long task|long[- ]running)/i,
    tool: 'trigger-long-running-operation',
    args: () => ({ duration: 5, steps: 5 }),
  },
  { pattern: /\b(image|picture)\b/i, tool: 'get-tiny-image', args: () => ({}) },
  { pattern: /\bread resource\s+(\d+)/i, tool: 'get-resource-reference', args: (m) => ({ resourceId: Number(m[1]) }) },
  {
    pattern: /\bask (?:the )?model\b\s*(?:to\s+)?(.*)/i,
    tool: 'trigger-sampling-request',
    args: (m) => ({ prompt: m[1].trim() || 'Say hello.', maxTokens: 100 }),
  },
  { pattern: /\b(ask me|my details)\b/i, tool: 'trigger-elicitation-request', args: () => ({}) },
  { pattern: /\bstart (?:a )?job\s*(.*)/i, tool: 'job', args: (m) => ({ text: m[1].trim() || 'a job' }) },
  // MCP Apps: server-debug's tool has a view, shown under the call
  { pattern: /\bdebug app\b/i, tool: 'debug-tool', args: () => ({}) },
];

export const HELP =
  'I am the offline demo model. Try: "echo hello", "add 2 and 3", "run a long task", "show me an image", "read resource 1", ' +
  '"ask me for my details", "ask the model for a haiku", "start a job weekly report" or "show me the debug app". ' +
  'I can only use tools the assistant is allowed to use (see the tool selector).';

let counter = 0;

/** One model turn. */
export function demoComplete(messages: ChatMessage[], tools: OpenAITool[]): ChatMessage {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    // answer from the results of this turn's tool calls
    const results: string[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--)
      results.unshift(messages[i].content ?? '');
    const text = results
      .map((r) =>
        /^Error: The user denied/.test(r)
          ? 'You denied the tool call, so I did not run it. Tell me if you want to try again.'
          : /^Error: The tool call was cancelled/.test(r)
            ? 'The tool call was cancelled before it finished.'
            : r.startsWith('Error:')
              ? `The tool failed: ${r.slice(7)}`
              : `The tool answered: ${r}`,
      )
      .join('\n');
    return { role: 'assistant', content: text };
  }
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  for (const rule of RULES) {
    const m = user.match(rule.pattern);
    if (!m) continue;
    const tool = tools.find((t) => t.function.name === rule.tool || t.function.name.endsWith(`__${rule.tool}`));
    if (!tool)
      return {
        role: 'assistant',
        content: `I would use the "${rule.tool}" tool, but this assistant may not use it. Select it in the tool selector.`,
      };
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_demo_${Date.now().toString(36)}_${counter++}`,
          type: 'function',
          function: { name: tool.function.name, arguments: JSON.stringify(rule.args(m)) },
        },
      ],
    };
  }
  return { role: 'assistant', content: HELP };
}

/** What a server's sampling request gives a model (the hub's `SamplingRequest`, text only). */
export interface SampleInput {
  messages: readonly { role: 'user' | 'assistant'; text: string }[];
  systemPrompt?: string;
  maxTokens: number;
}

/**
 * The demo model answering a server's sampling request (`hub.setSamplingHandler`): deterministic,
 * it quotes what it was asked and stays within `maxTokens` (about four characters a token).
 */
export function demoSample(input: SampleInput): { text: string; model: string } {
  const asked = [...input.messages].reverse().find((m) => m.role === 'user')?.text ?? '';
  const text = `Demo model answer: you asked "${asked.trim()}". Here is a short, friendly reply.`;
  return { text: text.slice(0, Math.max(16, input.maxTokens * 4)), model: 'mcp-elements-demo' };
}
