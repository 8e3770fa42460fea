// A call that only waited for approval when the page reloaded never ran: it comes back waiting
// (not `interrupted`), Allow and Deny work on the reloaded page, the result is stored and the
// outcome event tells the host; `runToolCalls({ resume: true })` answers the model's call from it.
// Interrupted calls run again as new calls (`hub.calls.runAgain`). Issue 25 item 7.
import { expect } from '@open-wc/testing';
import { McpHub, McpNotFoundError, McpToolError, type ToolCallRecord } from '../../src/core/index.js';
import { fixtureTenant, nextEvent, privateHub, rejects, unique, until, untilStored } from '../helpers.js';

type Msg = Record<string, unknown>;

/**
 * A page in a frame with its own hub on `storeName`. It reports `ready` with the calls it found,
 * then does what it is told: `call` (start one, report it once it waits for approval), `approve`,
 * `deny`, `resume` (runToolCalls with resume: true on `message`). Reloading it is the reload.
 */
function framePage(storeName: string) {
  const frame = document.createElement('iframe');
  frame.srcdoc = `<script type="module">
    import { McpHub } from '/src/core/index.ts';
    const hub = new McpHub({ storeName: ${JSON.stringify(storeName)} });
    const post = (m) => parent.postMessage({ reloadTest: true, ...JSON.parse(JSON.stringify(m)) }, '*');
    hub.addEventListener('mcp-tool-call-awaiting-approval', (e) => post({ kind: 'asked', id: e.detail.call.id }));
    for (const type of ['mcp-tool-call-completed', 'mcp-tool-call-denied', 'mcp-tool-call-failed'])
      hub.addEventListener(type, (e) => post({ kind: 'outcome', type, call: e.detail.call }));
    await hub.ready;
    window.addEventListener('message', async (e) => {
      const m = e.data;
      if (m.do === 'start') {
        hub.addEventListener('mcp-tool-call-started', (ev) => post({ kind: 'started', id: ev.detail.call.id }), { once: true });
        void hub.callTool({ name: m.name, arguments: m.arguments, providerCallId: m.providerCallId });
      } else if (m.do === 'call') {
        void hub.runToolCalls('openai', m.message);
      } else if (m.do === 'approve') hub.calls.approve(m.id);
      else if (m.do === 'deny') hub.calls.deny(m.id);
      else if (m.do === 'resume') {
        const out = await hub.runToolCalls('openai', m.message, { resume: true });
        post({ kind: 'resumed', messages: out.messages, calls: out.calls });
      }
    });
    post({ kind: 'ready', calls: hub.calls.list().map((c) => ({ id: c.id, status: c.status })) });
  </script>`;
  const queue: Msg[] = [];
  const waiters: ((m: Msg) => void)[] = [];
  const on = (e: MessageEvent) => {
    if (e.source !== frame.contentWindow || !e.data?.reloadTest) return;
    const w = waiters.shift();
    if (w) w(e.data as Msg);
    else queue.push(e.data as Msg);
  };
  window.addEventListener('message', on);
  document.body.append(frame);
  return {
    next: (kind: string) =>
      new Promise<Msg>((resolve) => {
        const take = (m: Msg) => (m.kind === kind ? resolve(m) : waiters.unshift(take));
        const i = queue.findIndex((m) => m.kind === kind);
        if (i >= 0) resolve(queue.splice(i, 1)[0]!);
        else waiters.push(take);
      }),
    send: (m: Msg) => frame.contentWindow!.postMessage(m, '*'),
    reload: () => frame.contentWindow!.location.reload(),
    close: () => {
      window.removeEventListener('message', on);
      frame.remove();
    },
  };
}

/** A store with the fixture server and an assistant that asks for every call. */
async function seededStore(approval: 'always-ask' | 'auto' = 'always-ask') {
  const name = unique('store');
  const t = fixtureTenant();
  const seed = new McpHub({ storeName: name, eventTarget: null });
  const s = await seed.servers.add({ name: 'fx', url: t.url });
  await seed.connect(s.id); // the catalogue is kept: the reloaded page can ask before it reconnects
  await seed.assistants.update('default', { approval });
  await seed.dispose();
  return { name, t };
}

const assistantMessage = (id: string, message: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'fx__echo', arguments: JSON.stringify({ message }) } }],
});

describe('a reload while a call waits for approval', () => {
  it('the call comes back waiting (asked again), and Allow on the reloaded page runs it once and stores the result', async () => {
    const { name, t } = await seededStore();
    const page = framePage(name);
    await page.next('ready');
    page.send({ do: 'call', message: assistantMessage('call_1', 'after reload') });
    const id = (await page.next('asked')).id as string;
    page.reload(); // at once: the record reaches the next page through the page-hide journal
    const ready = await page.next('ready');
    expect(ready.calls).to.deep.include({ id, status: 'awaiting-approval' });
    expect((await page.next('asked')).id).to.equal(id);
    const postsBefore = (await t.stats()).posts;
    page.send({ do: 'approve', id });
    const outcome = await page.next('outcome');
    expect(outcome.type).to.equal('mcp-tool-call-completed');
    const call = outcome.call as ToolCallRecord;
    expect(call.id).to.equal(id);
    expect(call.result?.content).to.deep.equal([{ type: 'text', text: 'Echo: after reload' }]);
    expect(call.approval).to.equal('user-once');
    expect((await t.stats()).posts).to.be.greaterThan(postsBefore);
    // stored (behind the call path): a later page finds it finished, not waiting nor interrupted
    await untilStored(name, id, 'success');
    page.close();
    const later = new McpHub({ storeName: name, eventTarget: null });
    await later.ready;
    expect(later.calls.get(id)?.status).to.equal('success');
    await later.dispose();
  });

  it('the reloaded page asks again (mcp-tool-call-awaiting-approval) and Deny ends it denied without sending anything', async () => {
    const { name, t } = await seededStore();
    const page = framePage(name);
    await page.next('ready');
    page.send({ do: 'call', message: assistantMessage('call_1', 'never sent') });
    const id = (await page.next('asked')).id as string;
    page.reload();
    await page.next('ready');
    // asked again once the reloaded page's hub has the call's lock (no other page holds it)
    expect((await page.next('asked')).id).to.equal(id);
    const postsBefore = (await t.stats()).posts;
    page.send({ do: 'deny', id });
    const outcome = await page.next('outcome');
    expect(outcome.type).to.equal('mcp-tool-call-denied');
    expect((outcome.call as ToolCallRecord).status).to.equal('denied');
    expect((await t.stats()).posts).to.equal(postsBefore);
    page.close();
  });

  it('runToolCalls with resume: the same message waits for the restored call and answers the model from it; a finished call is not run again', async () => {
    const { name, t } = await seededStore();
    const page = framePage(name);
    await page.next('ready');
    const message = assistantMessage('call_7', 'resumed');
    page.send({ do: 'call', message });
    const id = (await page.next('asked')).id as string;
    page.reload();
    await page.next('ready');
    page.send({ do: 'resume', message });
    expect((await page.next('asked')).id).to.equal(id);
    page.send({ do: 'approve', id });
    const resumed = await page.next('resumed');
    expect((resumed.calls as ToolCallRecord[]).map((c) => c.id)).to.deep.equal([id]);
    expect(resumed.messages).to.deep.equal([{ role: 'tool', tool_call_id: 'call_7', content: 'Echo: resumed' }]);
    // again: answered from history, nothing sent
    const postsBefore = (await t.stats()).posts;
    page.send({ do: 'resume', message });
    const again = await page.next('resumed');
    expect(again.messages).to.deep.equal(resumed.messages);
    expect((await t.stats()).posts).to.equal(postsBefore);
    page.close();
  });
});

describe('two tabs of one store', () => {
  it('a second tab does not ask about a call the first still asks about; it takes the outcome once the first is done', async () => {
    const { name } = await seededStore();
    const a = privateHub({ storeName: name, eventTarget: null });
    await a.ready;
    const asked = nextEvent<CustomEvent>(a, 'mcp-tool-call-awaiting-approval');
    const p = a.callTool({ name: 'fx__echo', arguments: { message: 'once' } });
    const id = ((await asked).detail.call as ToolCallRecord).id;
    await untilStored(name, id, 'awaiting-approval');
    const b = privateHub({ storeName: name, eventTarget: null });
    await b.ready;
    expect(b.calls.get(id)?.status).to.equal('awaiting-approval');
    // its lock is the first tab's: the second does not ask, and a decision there says why
    await until(async () => {
      try {
        b.calls.approve(id);
        return false;
      } catch (e) {
        return /another tab/.test((e as Error).message);
      }
    }, 'the second tab to see the call is decided elsewhere');
    a.calls.approve(id);
    expect((await p).status).to.equal('success');
    await until(async () => b.calls.get(id)?.status === 'success', 'the second tab to take the outcome');
    expect(b.calls.get(id)?.result?.content).to.deep.equal([{ type: 'text', text: 'Echo: once' }]);
    expect(b.status(b.servers.list()[0]!.id).status).to.equal('disconnected'); // it never ran there
  });
});

describe('hub.calls.runAgain', () => {
  it('an interrupted call runs again as a new call: same tool, arguments and provider id, rerunOf the old one', async () => {
    const { name } = await seededStore('auto');
    const page = framePage(name);
    await page.next('ready');
    page.send({ do: 'start', name: 'fx__hang', arguments: { note: 'again' }, providerCallId: 'call_h' });
    const id = (await page.next('started')).id as string;
    // stored as running first: this test is about Run again, not the page-hide journal (tested above)
    await untilStored(name, id, 'running');
    page.reload();
    const ready = await page.next('ready');
    expect(ready.calls).to.deep.include({ id, status: 'interrupted' });
    page.close();
    const hub = privateHub({ storeName: name });
    await hub.ready;
    const seen: ToolCallRecord[] = [];
    const started = nextEvent<CustomEvent>(hub, 'mcp-tool-call-started');
    const again = hub.calls.runAgain(id, { onCall: (r) => seen.push(r) });
    const running = (await started).detail.call as ToolCallRecord;
    expect(running.id).to.not.equal(id);
    expect(running).to.deep.include({ rerunOf: id, providerCallId: 'call_h', tool: 'hang', source: 'model' });
    expect(running.arguments).to.deep.equal({ note: 'again' });
    expect(seen.map((r) => [r.id, r.status])).to.deep.equal([[running.id, 'pending']]);
    expect(hub.calls.get(id)?.status).to.equal('interrupted'); // the old record is left as it was
    hub.calls.cancel(running.id);
    expect((await again).status).to.equal('cancelled');
  });

  it('bad input: an unknown id, a call still waiting, and nothing changes', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'fx', url: fixtureTenant().url });
    await hub.connect(s.id);
    const unknown = await rejects(hub.calls.runAgain('call-nope'));
    expect(unknown).to.be.instanceOf(McpNotFoundError);
    const waiting = nextEvent<CustomEvent>(hub, 'mcp-tool-call-awaiting-approval');
    const p = hub.callTool({ name: 'fx__echo', arguments: { message: 'x' } });
    const id = ((await waiting).detail.call as ToolCallRecord).id;
    const before = hub.calls.list().length;
    const live = await rejects(hub.calls.runAgain(id));
    expect(live).to.be.instanceOf(McpToolError);
    expect((live as McpToolError).code).to.equal('not-finished');
    expect(hub.calls.list().length).to.equal(before);
    expect(hub.calls.get(id)?.status).to.equal('awaiting-approval');
    hub.calls.deny(id);
    await p;
  });
});
