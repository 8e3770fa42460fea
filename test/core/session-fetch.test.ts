// The session's fetch watches each POST's event stream for the answers to the requests it carried
// (src/core/session/fetch.ts): a stream that ends before an answer fails that request at once.
// Whatever the chunking of the bytes (a line split anywhere, CRLF, a multi-byte character cut in
// two, a 1 MB message in many chunks), an answered request is never reported dropped and an
// unanswered one always is.
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { explainingFetch } from '../../src/core/session/fetch.js';

const enc = new TextEncoder();

/** The bytes of `text` cut at the given offsets, served as an event-stream response. */
function chunked(text: string, cuts: number[]): Response {
  const bytes = enc.encode(text);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    if (c > prev) parts.push(bytes.slice(prev, c));
    prev = Math.max(prev, c);
  }
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      const p = parts.shift();
      if (p) ctrl.enqueue(p);
      else ctrl.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** Read the watched body to its end; what the watcher reported. */
async function watch(text: string, cuts: number[], ids: (string | number)[]) {
  const reports: { unanswered: (string | number)[]; resumable: boolean }[] = [];
  const f = explainingFetch(
    async () => chunked(text, cuts),
    {},
    { onExceed: () => {}, onBroken: (unanswered, resumable) => reports.push({ unanswered, resumable }) },
  );
  const body =
    ids.length === 1
      ? { jsonrpc: '2.0', id: ids[0], method: 'tools/list' }
      : ids.map((id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
  const res = await f('http://127.0.0.1:9/mcp', { method: 'POST', body: JSON.stringify(body) });
  const seen = await res.text();
  return { reports, seen };
}

const sse = (events: { id?: string; data: unknown }[], eol: string) =>
  events.map((e) => `${e.id ? `id: ${e.id}${eol}` : ''}data: ${JSON.stringify(e.data)}${eol}${eol}`).join('');

describe('session fetch: the answers in a POST event stream', () => {
  const big = { tools: [{ name: 'huge', description: 'é€😀 '.repeat(150_000) }] };

  it('an answer split over any chunking is seen, and the body passes through unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        async (cuts, eol, withProgress) => {
          const events = [
            ...(withProgress
              ? [{ data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } } }]
              : []),
            { id: 'e1', data: { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok ✓' }] } } },
          ];
          const text = sse(events, eol);
          const { reports, seen } = await watch(text, cuts, [7]);
          expect(reports).to.deep.equal([]);
          expect(seen).to.equal(text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a 1 MB answer in many chunks is seen', async () => {
    const text = sse([{ data: { jsonrpc: '2.0', id: 'a', result: big } }], '\n');
    const cuts = Array.from({ length: 200 }, (_, i) => Math.floor((text.length * i) / 200) + 1);
    const { reports } = await watch(text, cuts, ['a']);
    expect(reports).to.deep.equal([]);
  });

  it('a stream that ends before an answer reports exactly the unanswered ids, at any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        async (cuts, eol) => {
          // 1 is answered; 2 only gets a progress notification; 3 a server request with its id
          const text = sse(
            [
              { id: 'x', data: { jsonrpc: '2.0', id: 1, result: big } },
              { data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } } },
              { data: { jsonrpc: '2.0', id: 3, method: 'sampling/createMessage', params: {} } },
            ],
            eol,
          );
          const { reports } = await watch(text, cuts, [1, 2, 3]);
          expect(reports).to.deep.equal([{ unanswered: [2, 3], resumable: true }]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('an answer counts when its event ends, as the SDK reads it: data over several lines, a BOM, any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.constantFrom('', 'event: message', 'event:message', 'event:'),
        async (cuts, eol, bom, type) => {
          // the JSON pretty-printed: one data line per line of it, joined again by the parser
          const answer = JSON.stringify({ jsonrpc: '2.0', id: 9, result: { text: 'ok ✓' } }, null, 2);
          const data = answer
            .split('\n')
            .map((l, i) => (i % 2 ? `data:${l}` : `data: ${l}`))
            .join(eol);
          const text = `${bom ? '\uFEFF' : ''}: a comment${eol}${type ? type + eol : ''}${data}${eol}${eol}`;
          const { reports, seen } = await watch(text, cuts, [9]);
          expect(reports).to.deep.equal([]);
          expect(seen, 'the body passes through (text() drops a BOM)').to.equal(text.replace(/^\uFEFF/, ''));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an answer whose event never ends, or of another event type, is not an answer', async () => {
    const answer = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: {} });
    for (const eol of ['\n', '\r\n', '\r']) {
      // 1 ends, 2 is in an event of another type, 3's event has no blank line before the end
      const text = [`data: ${answer(1)}`, '', 'event: other', `data: ${answer(2)}`, '', `data: ${answer(3)}`, ''].join(
        eol,
      );
      const { reports } = await watch(text, [5, 40], [1, 2, 3]);
      expect(reports, JSON.stringify(eol)).to.deep.equal([{ unanswered: [2, 3], resumable: false }]);
    }
  });

  it('a final line without its newline is not an answer', async () => {
    const text = `data: ${JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} })}`;
    const { reports } = await watch(text, [3, 20], [5]);
    expect(reports).to.deep.equal([{ unanswered: [5], resumable: false }]);
  });
  it('a priming event (an id, empty data) is no answer, and the answer after it counts', async () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 4, result: {} });
    for (const eol of ['\n', '\r\n', '\r']) {
      const priming = `id: p1${eol}data:${eol}${eol}`;
      const alone = await watch(priming, [4], [4]);
      expect(alone.reports, 'primed, then ended').to.deep.equal([{ unanswered: [4], resumable: true }]);
      const both = await watch(`${priming}data: ${answer}${eol}${eol}`, [7, 30], [4]);
      expect(both.reports, 'primed, then answered').to.deep.equal([]);
    }
  });

  it('the watched response is the one the server sent, its body read through the watch by every reader', async () => {
    const text = sse([{ data: { jsonrpc: '2.0', id: 1, result: {} } }], '\n');
    const sent = chunked(text, [3]);
    const f = explainingFetch(async () => sent, {}, { max: 64, onExceed: () => {} });
    const res = await f('http://127.0.0.1:9/mcp', { method: 'POST', body: '{}' });
    expect(res, 'the same object: status, headers and url as they came').to.equal(sent);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    expect(await res.text(), 'the body as sent').to.equal(text);
    // past the 64-byte cap: every way of reading fails, none reads around the watch
    const over = sse([{ data: { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(100) } } }], '\n');
    for (const read of ['text', 'json', 'arrayBuffer', 'blob'] as const) {
      const exceeded: string[] = [];
      const capped = explainingFetch(
        async () => chunked(over, [10]),
        {},
        {
          max: 64,
          onExceed: (_ids, e) => exceeded.push(e.code),
        },
      );
      const big = await capped('http://127.0.0.1:9/mcp', { method: 'POST', body: '{}' });
      const got = await (big[read]() as Promise<unknown>).then(
        () => 'read',
        () => 'refused',
      );
      expect(got, read).to.equal('refused');
      expect(exceeded, read).to.deep.equal(['too-large']);
    }
  });
  it('the watched response behaves as a Response: clone() then body, a second read, bytes where the platform has it', async () => {
    const text = sse([{ data: { jsonrpc: '2.0', id: 1, result: {} } }], '\n');
    const f = explainingFetch(async () => chunked(text, [5]), {}, { max: 1024, onExceed: () => {} });
    const res = await f('http://127.0.0.1:9/mcp', { method: 'POST', body: '{}' });
    const copy = res.clone();
    expect(await copy.text()).to.equal(text);
    expect(res.body!.locked, 'after clone(), body is a branch of its own').to.equal(false);
    expect(await new Response(res.body).text()).to.equal(text);
    expect(res.bodyUsed).to.equal(true);
    // read once: every reader rejects (never throws), as a Response's do
    const again = res.text();
    expect(again).to.be.instanceOf(Promise);
    expect(
      await again.then(
        () => 'read',
        () => 'refused',
      ),
    ).to.equal('refused');
    expect(Object.getOwnPropertyNames(res).includes('bytes')).to.equal('bytes' in Response.prototype);
  });

  it("closing the session cuts off an answer still coming, an error's too", async () => {
    for (const status of [200, 500]) {
      const session = new AbortController();
      let seen: AbortSignal | undefined;
      const f = explainingFetch(
        async (_url, init) => {
          seen = init!.signal!;
          return new Response(new ReadableStream({ pull() {} }), {
            status,
            headers: { 'content-type': 'text/event-stream' },
          });
        },
        {},
        { max: 1024, onExceed: () => {}, onBroken: () => {} },
      );
      await f('http://127.0.0.1:9/mcp', { method: 'POST', body: '{}', signal: session.signal });
      expect(seen!.aborted, `${status}: before`).to.equal(false);
      session.abort();
      expect(seen!.aborted, `${status}: after the session closed`).to.equal(true);
    }
  });
});
