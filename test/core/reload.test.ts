import { expect } from '@open-wc/testing';
import { McpHub } from '../../src/core/index.js';
import { fixtureTenant, unique } from '../helpers.js';

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
});
