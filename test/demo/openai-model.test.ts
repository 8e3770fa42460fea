// The demo's OpenAI-compatible path: an LLM provider's streaming API is the one thing no real
// server here can be, so msw plays it; the tool calls it asks for run against the real
// server-everything through the hub.
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { openaiComplete, openaiSample } from '../../demo/openai-model.js';
import type { ChatMessage } from '../../demo/demo-model.js';
import { demoComplete, demoSample, HELP } from '../../demo/demo-model.js';
import { privateHub, urls } from '../helpers.js';

const BASE = 'https://llm.example.test/v1';
// https://platform.openai.com/docs/api-reference/chat-streaming — chunks of a streamed reply
function sse(chunks: unknown[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(`data: ${JSON.stringify(ch)}\n\n`));
      c.enqueue(enc.encode('data: [DONE]\n\n'));
      c.close();
    },
  });
}
const seen: { body: any; auth: string | null }[] = [];
const worker = setupWorker(
  http.post(`${BASE}/chat/completions`, async ({ request }) => {
    const body = (await request.json()) as any;
    seen.push({ body, auth: request.headers.get('authorization') });
    const last = body.messages[body.messages.length - 1];
    const chunks =
      last.role === 'tool'
        ? [
            { choices: [{ index: 0, delta: { role: 'assistant', content: 'The echo ' } }] },
            { choices: [{ index: 0, delta: { content: `said: ${last.content}` }, finish_reason: 'stop' }] },
          ]
        : [
            {
              choices: [
                {
                  index: 0,
                  delta: {
                    role: 'assistant',
                    content: null,
                    tool_calls: [
                      {
                        index: 0,
                        id: 'call_llm',
                        type: 'function',
                        function: { name: 'everything__echo', arguments: '' },
                      },
                    ],
                  },
                },
              ],
            },
            { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"message":' } }] } }] },
            {
              choices: [
                {
                  index: 0,
                  delta: { tool_calls: [{ index: 0, function: { arguments: '"streamed"}' } }] },
                  finish_reason: 'tool_calls',
                },
              ],
            },
          ];
    return new HttpResponse(sse(chunks), { headers: { 'content-type': 'text/event-stream' } });
  }),
  http.post(`${BASE}/sample/chat/completions`, async ({ request }) => {
    const body = (await request.json()) as any;
    seen.push({ body, auth: request.headers.get('authorization') });
    return new HttpResponse(
      sse([
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'A haiku ' } }] },
        { choices: [{ index: 0, delta: { content: 'for you' }, finish_reason: 'stop' }] },
      ]),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  }),
  http.post(`${BASE}/broken/chat/completions`, () =>
    HttpResponse.json({ error: { message: 'bad key' } }, { status: 401 }),
  ),
);

describe('demo models', () => {
  before(() =>
    worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true }),
  );
  after(async () => {
    worker.stop();
    // the worker must not outlive this file: other test files share the origin
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  });

  it('OpenAI-compatible endpoint: streamed text and tool calls, multi-step through the hub', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'everything', url: urls.everything });
    await hub.connect(s.id);
    await hub.assistants.update('default', { approval: 'auto' });
    const settings = { baseUrl: BASE, apiKey: 'sk-test', model: 'test-model' };
    const messages: ChatMessage[] = [{ role: 'user', content: 'echo streamed' }];
    const texts: string[] = [];
    for (let step = 0; step < 4; step++) {
      const reply = await openaiComplete(settings, messages, hub.toolsFor('openai'), (t) => texts.push(t));
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      const out = await hub.runToolCalls('openai', reply);
      messages.push(...(out.messages as ChatMessage[]));
    }
    expect(messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[2].content).to.equal('Echo: streamed');
    expect(messages[3].content).to.equal('The echo said: Echo: streamed');
    expect(texts).to.include('The echo ');
    expect(seen[0].auth).to.equal('Bearer sk-test');
    expect(seen[0].body.stream).to.equal(true);
    expect(seen[0].body.tools.some((t: any) => t.function.name === 'everything__echo')).to.equal(true);
  });

  it('a sampling request answered by the endpoint: system prompt and messages as a chat, max_tokens, no tools', async () => {
    const answer = await openaiSample(
      { baseUrl: `${BASE}/sample`, apiKey: '', model: 'm1' },
      {
        systemPrompt: 'You are a helpful test server.',
        messages: [{ role: 'user', text: 'Write a haiku' }],
        maxTokens: 40,
        temperature: 0.7,
      },
    );
    expect(answer).to.deep.equal({ text: 'A haiku for you', model: 'm1' });
    const body = seen[seen.length - 1].body;
    expect(body.messages).to.deep.equal([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Write a haiku' },
    ]);
    expect(body.max_tokens).to.equal(40);
    expect(body.temperature).to.equal(0.7);
    expect(body.tools).to.equal(undefined);
  });

  it('the offline demo model answers sampling requests deterministically, within max tokens', () => {
    const a = demoSample({ messages: [{ role: 'user', text: 'context: a haiku' }], maxTokens: 100 });
    expect(a).to.deep.equal(demoSample({ messages: [{ role: 'user', text: 'context: a haiku' }], maxTokens: 100 }));
    expect(a.text).to.contain('context: a haiku');
    expect(a.model).to.equal('mcp-elements-demo');
    expect(demoSample({ messages: [{ role: 'user', text: 'x'.repeat(500) }], maxTokens: 10 }).text.length).to.equal(40);
    const tools = [
      { type: 'function' as const, function: { name: 'everything__trigger-elicitation-request' } },
      { type: 'function' as const, function: { name: 'everything__trigger-sampling-request' } },
    ];
    expect(
      demoComplete([{ role: 'user', content: 'ask me for my details' }], tools).tool_calls?.[0].function,
    ).to.deep.equal({
      name: 'everything__trigger-elicitation-request',
      arguments: '{}',
    });
    expect(
      demoComplete([{ role: 'user', content: 'ask the model for a haiku' }], tools).tool_calls?.[0].function,
    ).to.deep.equal({
      name: 'everything__trigger-sampling-request',
      arguments: '{"prompt":"for a haiku","maxTokens":100}',
    });
  });

  it('an endpoint error is reported, not swallowed', async () => {
    let err: Error | undefined;
    try {
      await openaiComplete(
        { baseUrl: `${BASE}/broken`, apiKey: 'x', model: 'm' },
        [{ role: 'user', content: 'hi' }],
        [],
        () => {},
      );
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.contain('HTTP 401');
  });

  it('the offline demo model is deterministic and documented', () => {
    const tools = [
      { type: 'function' as const, function: { name: 'everything__echo' } },
      { type: 'function' as const, function: { name: 'everything__get-sum' } },
    ];
    const a = demoComplete([{ role: 'user', content: 'please echo hi there' }], tools);
    expect(a.tool_calls?.[0].function).to.deep.equal({ name: 'everything__echo', arguments: '{"message":"hi there"}' });
    expect(demoComplete([{ role: 'user', content: 'add 2 and 3' }], tools).tool_calls?.[0].function.arguments).to.equal(
      '{"a":2,"b":3}',
    );
    expect(demoComplete([{ role: 'user', content: 'show me an image' }], tools).content).to.contain('may not use it');
    expect(demoComplete([{ role: 'user', content: 'hello?' }], tools).content).to.equal(HELP);
    expect(
      demoComplete(
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null },
          { role: 'tool', content: 'Error: The user denied this tool call.', tool_call_id: 'c' },
        ],
        tools,
      ).content,
    ).to.contain('You denied');
  });
});
