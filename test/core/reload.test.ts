import { expect } from '@open-wc/testing';
import { McpHub } from '../../src/core/index.js';
import { fixtureTenant, unique, urls } from '../helpers.js';

/** Messages from the frame's page, in order. */
function messages() {
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  const on = (e: MessageEvent) => {
    if (!e.data?.reloadTest) return;
    const w = waiters.shift();
    if (w) w(e.data);
    else queue.push(e.data);
  };
  window.addEventListener('message', on);
  return {
    next: () => new Promise<Record<string, unknown>>((r) => (queue.length ? r(queue.shift()!) : waiters.push(r))),
    stop: () => window.removeEventListener('message', on),
  };
}

describe('a reload in the middle of calls', () => {
  it('50 calls started and the page reloaded at once: every call leaves a record, interrupted', async () => {
    const name = unique('store');
    const t = fixtureTenant();
    const seed = new McpHub({ storeName: name, eventTarget: null });
    const s = await seed.servers.add({ name: 'fx', url: t.url });
    await seed.connect(s.id); // the catalogue is kept, so the page can call before it reconnects
    await seed.assistants.update('default', { approval: 'auto' });
    await seed.dispose();
    const frame = document.createElement('iframe');
    // the page starts 50 calls when told to, reports their ids, and is reloaded at once
    frame.srcdoc = `<script type="module">
      import { McpHub } from '/src/core/index.ts';
      const hub = new McpHub({ storeName: ${JSON.stringify(name)} });
      await hub.ready;
      window.addEventListener('message', (e) => {
        if (e.data !== 'go') return;
        for (let i = 0; i < 50; i++) hub.callTool({ name: 'fx__hang' });
        parent.postMessage({ reloadTest: 'started', ids: hub.calls.list().map((c) => c.id) }, '*');
      });
      parent.postMessage({ reloadTest: 'ready' }, '*');
    </script>`;
    const inbox = messages();
    document.body.append(frame);
    expect((await inbox.next()).reloadTest).to.equal('ready');
    frame.contentWindow!.postMessage('go', '*');
    const started = await inbox.next();
    frame.contentWindow!.location.reload();
    expect((await inbox.next()).reloadTest).to.equal('ready');
    const ids = started.ids as string[];
    expect(ids).to.have.length(50);
    const after = new McpHub({ storeName: name, eventTarget: null });
    await after.ready;
    const found = ids.map((id) => after.calls.get(id)?.status);
    expect(found.filter((s) => s === 'interrupted')).to.have.length(50);
    inbox.stop();
    frame.remove();
    await after.dispose();
  });

  it('50 calls running (10 on each of 5 servers) and the page reloaded: all 50 recorded interrupted', async () => {
    const name = unique('store');
    const seed = new McpHub({ storeName: name, eventTarget: null });
    // one origin per server, so the browser's 6 connections per origin do not hold calls back
    for (const [i, base] of urls.faultAliases.entries()) {
      const s = await seed.servers.add({ name: `r${i}`, url: `${base}/f/${unique('reload')}/ok/mcp` });
      await seed.connect(s.id);
    }
    await seed.assistants.update('default', { approval: 'auto' });
    await seed.dispose();
    const frame = document.createElement('iframe');
    // the page starts 50 calls, reports once every one is running, and is reloaded at once
    frame.srcdoc = `<script type="module">
      import { McpHub } from '/src/core/index.ts';
      const hub = new McpHub({ storeName: ${JSON.stringify(name)} });
      await hub.ready;
      window.addEventListener('message', (e) => {
        if (e.data !== 'go') return;
        const running = new Set();
        hub.addEventListener('mcp-tool-call-started', (ev) => {
          running.add(ev.detail.call.id);
          if (running.size === 50)
            parent.postMessage({ reloadTest: 'running', ids: [...running],
              statuses: hub.calls.list().map((c) => c.status) }, '*');
        });
        for (let i = 0; i < 50; i++) hub.callTool({ name: 'r' + (i % 5) + '__hang' });
      });
      parent.postMessage({ reloadTest: 'ready' }, '*');
    </script>`;
    const inbox = messages();
    document.body.append(frame);
    expect((await inbox.next()).reloadTest).to.equal('ready');
    frame.contentWindow!.postMessage('go', '*');
    const running = await inbox.next();
    expect(running.reloadTest).to.equal('running');
    expect(running.statuses).to.deep.equal(Array(50).fill('running'));
    frame.contentWindow!.location.reload();
    expect((await inbox.next()).reloadTest).to.equal('ready');
    const ids = running.ids as string[];
    const after = new McpHub({ storeName: name, eventTarget: null });
    await after.ready;
    const found = ids.map((id) => after.calls.get(id)?.status);
    console.log(`reload: 50 calls running, ${found.filter((s) => s === 'interrupted').length} recorded interrupted`);
    expect(found).to.deep.equal(Array(50).fill('interrupted'));
    inbox.stop();
    frame.remove();
    await after.dispose();
  });
});
