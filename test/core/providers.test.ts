import { expect } from '@open-wc/testing';
import {
  AnthropicStreamAccumulator,
  OpenAIStreamAccumulator,
  modelDescription,
  toGeminiSchema,
  type McpHub,
} from '../../src/core/index.js';
import { privateHub, urls } from '../helpers.js';

/** A hub connected to server-everything (named "everything"), approval `auto` for assistantId `p`. */
async function everythingHub(): Promise<McpHub> {
  const hub = privateHub({ eventTarget: null });
  const s = await hub.servers.add({ name: 'everything', url: urls.everything });
  await hub.connect(s.id);
  await hub.assistants.update('p', { approval: 'auto' });
  return hub;
}
const textOf = (v: unknown) => JSON.stringify(v);

describe('provider formats: tools out, tool calls in, results out', () => {
  it('OpenAI Chat Completions', async () => {
    const hub = await everythingHub();
    const tools = hub.toolsFor('openai', { assistantId: 'p' }) as any[];
    const echo = tools.find((t) => t.function.name === 'everything__echo');
    expect(echo).to.deep.include({ type: 'function' });
    expect(echo.function.parameters).to.include({ type: 'object' });
    expect(echo.function.parameters.properties).to.have.property('message');
    expect(echo.function.description).to.be.a('string').and.not.equal('');
    // https://platform.openai.com/docs/api-reference/chat/object (choices[].message.tool_calls)
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_abc', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"hi"}' } },
        { id: 'call_def', type: 'function', function: { name: 'everything__get-sum', arguments: '{"a":2,"b":3}' } },
        { id: 'call_web', type: 'function', function: { name: 'web_search', arguments: '{"q":"mcp"}' } },
      ],
    };
    const out = await hub.runToolCalls('openai', message, { assistantId: 'p' });
    expect(out.messages).to.have.length(2);
    expect(out.messages[0]).to.deep.equal({ role: 'tool', tool_call_id: 'call_abc', content: 'Echo: hi' });
    expect(out.messages[1]).to.include({ role: 'tool', tool_call_id: 'call_def' });
    expect((out.messages[1] as any).content).to.contain('5');
    // the host's own tool is handed back untouched
    expect(out.unhandled).to.deep.equal([message.tool_calls[2]]);
    expect(out.calls.map((c) => c.status)).to.deep.equal(['success', 'success']);
    expect(out.calls[0].providerCallId).to.equal('call_abc');
  });

  it('OpenAI Responses API', async () => {
    const hub = await everythingHub();
    const tools = hub.toolsFor('openai-responses', { assistantId: 'p' }) as any[];
    expect(tools.find((t) => t.name === 'everything__echo')).to.deep.include({ type: 'function' });
    expect(tools[0]).to.have.keys(['type', 'name', 'description', 'parameters']);
    // https://platform.openai.com/docs/api-reference/responses/object (output[] function_call items)
    const response = {
      id: 'resp_1',
      object: 'response',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'everything__echo',
          arguments: '{"message":"resp"}',
          status: 'completed',
        },
      ],
    };
    const out = await hub.runToolCalls('openai-responses', response, { assistantId: 'p' });
    expect(out.messages).to.deep.equal([{ type: 'function_call_output', call_id: 'call_1', output: 'Echo: resp' }]);
  });

  it('Anthropic Messages, with an image result as an image block', async () => {
    const hub = await everythingHub();
    const tools = hub.toolsFor('anthropic', { assistantId: 'p' }) as any[];
    const echo = tools.find((t) => t.name === 'everything__echo');
    expect(echo).to.have.keys(['name', 'description', 'input_schema']);
    expect(echo.input_schema.type).to.equal('object');
    // https://docs.anthropic.com/en/api/messages (response content[] tool_use blocks)
    const response = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'everything__echo', input: { message: 'claude' } },
        { type: 'tool_use', id: 'toolu_2', name: 'everything__get-tiny-image', input: {} },
        { type: 'tool_use', id: 'toolu_3', name: 'everything__get-sum', input: { a: 'two', b: 3 } },
      ],
      stop_reason: 'tool_use',
    };
    const out = await hub.runToolCalls('anthropic', response, { assistantId: 'p' });
    expect(out.messages).to.have.length(1);
    const m = out.messages[0] as any;
    expect(m.role).to.equal('user');
    expect(m.content.map((b: any) => b.tool_use_id)).to.deep.equal(['toolu_1', 'toolu_2', 'toolu_3']);
    expect(m.content[0]).to.deep.equal({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: 'Echo: claude' }],
    });
    const image = m.content[1].content.find((b: any) => b.type === 'image');
    expect(image.source).to.include({ type: 'base64', media_type: 'image/png' });
    expect(image.source.data.length).to.be.greaterThan(50);
    // invalid arguments: not sent, the model is told which field and why
    expect(m.content[2].is_error).to.equal(true);
    expect(m.content[2].content[0].text).to.contain('"a"');
    expect(out.calls[2].status).to.equal('error');
    expect(out.calls[2].error?.code).to.equal('invalid-arguments');
    expect(out.calls[2].startedAt).to.equal(undefined);
  });

  it('Gemini, with the schema converted to the subset Gemini accepts', async () => {
    const hub = await everythingHub();
    const tools = hub.toolsFor('gemini', { assistantId: 'p' }) as any[];
    expect(tools).to.have.length(1);
    const decls = tools[0].functionDeclarations as any[];
    const sum = decls.find((d) => d.name === 'everything__get-sum');
    expect(sum.parameters.type).to.equal('OBJECT');
    expect(sum.parameters.properties.a.type).to.equal('NUMBER');
    const text = textOf(decls);
    for (const banned of ['$schema', 'additionalProperties', '$ref', '$defs', '"const"'])
      expect(text).not.to.contain(banned);
    // a tool without arguments has no parameters (Gemini rejects an empty OBJECT)
    const noArgs = decls.find((d) => d.name === 'everything__get-tiny-image');
    expect(noArgs).not.to.have.property('parameters');
    // https://ai.google.dev/api/generate-content#generatecontentresponse (candidates[].content.parts[].functionCall)
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'everything__echo', args: { message: 'gemini' } } },
              { functionCall: { id: 'fc-2', name: 'everything__get-sum', args: { a: 1, b: 1 } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    };
    const out = await hub.runToolCalls('gemini', response, { assistantId: 'p' });
    expect(out.messages).to.have.length(1);
    const m = out.messages[0] as any;
    expect(m.role).to.equal('user');
    expect(m.parts[0]).to.deep.equal({
      functionResponse: { name: 'everything__echo', response: { result: 'Echo: gemini' } },
    });
    expect(m.parts[1].functionResponse.id).to.equal('fc-2');
  });

  it('answers unknown tools as errors when the host has no tools of its own', async () => {
    const hub = await everythingHub();
    const out = await hub.runToolCalls(
      'openai',
      { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'nope', arguments: '{}' } }] },
      { assistantId: 'p', unknownTools: 'error' },
    );
    expect(out.unhandled).to.deep.equal([]);
    expect((out.messages[0] as any).content).to.contain('There is no tool named "nope"');
  });

  it('malformed JSON arguments are answered, not thrown', async () => {
    const hub = await everythingHub();
    const out = await hub.runToolCalls(
      'openai',
      {
        role: 'assistant',
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'everything__echo', arguments: '{"message": ' } }],
      },
      { assistantId: 'p' },
    );
    expect((out.messages[0] as any).content).to.match(/^Error: Invalid arguments.*not valid JSON/);
  });

  it('runs host tools through runHostTool, results in order', async () => {
    const hub = await everythingHub();
    const message = {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'h1', name: 'web_search', input: { q: 'x' } },
        { type: 'tool_use', id: 'm1', name: 'everything__echo', input: { message: 'mixed' } },
      ],
    };
    const out = await hub.runToolCalls('anthropic', message, {
      assistantId: 'p',
      runHostTool: async (c) => `searched ${JSON.stringify(c.arguments)}`,
    });
    const blocks = (out.messages[0] as any).content;
    expect(blocks.map((b: any) => b.tool_use_id)).to.deep.equal(['h1', 'm1']);
    expect(blocks[0].content[0].text).to.equal('searched {"q":"x"}');
  });
});

describe('streamed tool calls', () => {
  it('OpenAI: tool_calls deltas accumulate into a message runToolCalls can run', async () => {
    const hub = await everythingHub();
    // https://platform.openai.com/docs/api-reference/chat-streaming/streaming (chat.completion.chunk)
    const chunks = [
      { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: null } }] },
      {
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_s', type: 'function', function: { name: 'everything__echo', arguments: '' } },
              ],
            },
          },
        ],
      },
      {
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"mess' } }] } }],
      },
      {
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'age":"streamed"}' } }] } }],
      },
      { object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ];
    const acc = new OpenAIStreamAccumulator();
    for (const c of chunks) acc.push(c);
    expect(acc.message().tool_calls?.[0].function).to.deep.equal({
      name: 'everything__echo',
      arguments: '{"message":"streamed"}',
    });
    const out = await hub.runToolCalls('openai', acc.message(), { assistantId: 'p' });
    expect((out.messages[0] as any).content).to.equal('Echo: streamed');
  });

  it('Anthropic: input_json_delta events accumulate into tool_use input', async () => {
    const hub = await everythingHub();
    // https://docs.anthropic.com/en/docs/build-with-claude/streaming#input-json-delta
    const events = [
      { type: 'message_start', message: { id: 'msg_s', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sure.' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_s', name: 'everything__echo', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"message": "del' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ta"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ];
    const acc = new AnthropicStreamAccumulator();
    for (const e of events) acc.push(e);
    expect(acc.message().content).to.deep.equal([
      { type: 'text', text: 'Sure.' },
      { type: 'tool_use', id: 'toolu_s', name: 'everything__echo', input: { message: 'delta' } },
    ]);
    const out = await hub.runToolCalls('anthropic', acc.message(), { assistantId: 'p' });
    expect((out.messages[0] as any).content[0].content[0].text).to.equal('Echo: delta');
  });
});

describe('runConversation', () => {
  it('alternates model and tools until the model answers', async () => {
    const hub = await everythingHub();
    const seen: unknown[][] = [];
    // The host's `complete` is its own LLM call; this one is a scripted model.
    const complete = async (messages: unknown[], tools: unknown[]) => {
      seen.push(messages);
      expect(tools.length).to.be.greaterThan(5);
      const last = messages[messages.length - 1] as any;
      if (last.role === 'tool') return { role: 'assistant', content: `The tool said: ${last.content}` };
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"loop"}' } },
        ],
      };
    };
    const r = await hub.runConversation({
      provider: 'openai',
      assistantId: 'p',
      complete,
      messages: [{ role: 'user', content: 'echo loop' }],
    });
    expect(r.stopped).to.equal('done');
    expect(r.steps).to.equal(2);
    expect((r.reply as any).content).to.equal('The tool said: Echo: loop');
    expect(r.messages.map((m: any) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant']);
  });

  it('stops after maxSteps', async () => {
    const hub = await everythingHub();
    const complete = async () => ({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"again"}' } },
      ],
    });
    const r = await hub.runConversation({ provider: 'openai', assistantId: 'p', complete, messages: [], maxSteps: 3 });
    expect(r.stopped).to.equal('max-steps');
    expect(r.messages.filter((m: any) => m.role === 'tool')).to.have.length(3);
  });
});

describe('descriptions for the model', () => {
  it('carry short hints from annotations, and are capped', () => {
    const base = { name: 't', inputSchema: { type: 'object' as const } };
    expect(
      modelDescription({ ...base, description: 'Deletes a file.', annotations: { destructiveHint: true } }),
    ).to.equal('Deletes a file. [May change or delete things. Talks to outside systems.]');
    expect(
      modelDescription({ ...base, description: 'Reads.', annotations: { readOnlyHint: true, openWorldHint: false } }),
    ).to.equal('Reads. [Safe to retry.]');
    expect(modelDescription({ ...base, description: 'Plain.' })).to.equal('Plain.');
    // the server's text first; the title only adds what the description does not say
    expect(modelDescription({ ...base, title: 'Search', description: 'Finds things.' })).to.equal(
      'Finds things. (Search)',
    );
    expect(modelDescription({ ...base, title: 'Search', description: 'Search the web.' })).to.equal('Search the web.');
    expect(modelDescription({ ...base, title: 'Search' })).to.equal('Search');
    expect(modelDescription({ ...base, description: 'x'.repeat(1_000_000) }).length).to.be.at.most(1024);
  });
});

describe('Gemini schema conversion', () => {
  // Shapes seen in real servers' tool definitions (zod-to-json-schema output with $ref/$defs,
  // nullable unions, const discriminators, integer enums, allOf composition).
  it('inlines $ref/$defs, rewrites const and type arrays, drops what Gemini rejects', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      $defs: {
        Point: {
          type: 'object',
          properties: { x: { type: 'number' }, y: { type: 'number' } },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
      properties: {
        at: { $ref: '#/$defs/Point' },
        label: { type: ['string', 'null'], description: 'A label' },
        kind: { const: 'circle' },
        level: { enum: [1, 2, 3], type: 'integer' },
        shape: {
          oneOf: [
            { type: 'object', properties: { r: { type: 'number' } } },
            { type: 'object', properties: { w: { type: 'number' } } },
          ],
        },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'integer' } } },
          ],
        },
        tags: { type: 'array', items: { type: 'string', format: 'uri' } },
        anyValue: {},
      },
      required: ['at', 'kind'],
    };
    const g = toGeminiSchema(schema) as any;
    const text = JSON.stringify(g);
    for (const banned of ['$schema', 'additionalProperties', '$ref', '$defs', '"const"', '"oneOf"', '"allOf"'])
      expect(text).not.to.contain(banned);
    expect(g.type).to.equal('OBJECT');
    expect(g.required).to.deep.equal(['at', 'kind']);
    expect(g.properties.at).to.deep.equal({
      type: 'OBJECT',
      properties: { x: { type: 'NUMBER' }, y: { type: 'NUMBER' } },
      required: ['x', 'y'],
    });
    expect(g.properties.label).to.deep.equal({ type: 'STRING', description: 'A label', nullable: true });
    expect(g.properties.kind).to.deep.equal({ type: 'STRING', enum: ['circle'] });
    expect(g.properties.level.type).to.equal('INTEGER');
    expect(g.properties.level.description).to.contain('one of 1, 2, 3');
    expect(g.properties.shape.anyOf).to.have.length(2);
    expect(g.properties.both.properties).to.have.keys(['a', 'b']);
    expect(g.properties.tags.items.type).to.equal('STRING');
    expect(g.properties.anyValue.type).to.equal('STRING');
  });

  it('cuts recursive $ref instead of looping', () => {
    const schema = {
      type: 'object',
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      properties: { root: { $ref: '#/$defs/Node' } },
    };
    const g = toGeminiSchema(schema) as any;
    expect(g.properties.root.properties.child.type).to.equal('OBJECT');
    expect(g.properties.root.properties.child.description).to.contain('recursive');
  });
});
