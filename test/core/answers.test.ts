// The client answers back, against real servers: server-everything (2025-11-25: elicitation,
// sampling, roots and logs as server→client requests) and the 2026-07-28 fixture (the same
// handlers through input_required rounds).
import { expect } from '@open-wc/testing';
import type { McpHub, ElicitationRecord, SamplingRecord, SamplingRequest } from '../../src/core/index.js';
import { nextEvent, privateHub, unique, urls } from '../helpers.js';

async function everything(hub: McpHub) {
  const s = await hub.servers.add({ name: 'everything', url: urls.everything, retries: 0 });
  const catalogue = await hub.connect(s.id);
  return { id: s.id, catalogue };
}
const text = (r: { content?: unknown[] }) => JSON.stringify(r.content ?? []);
const pendingElicitation = () =>
  nextEvent<CustomEvent<{ elicitation: ElicitationRecord }>>(window, 'mcp-elicitation-request').then(
    (e) => e.detail.elicitation,
  );
const pendingSampling = () =>
  nextEvent<CustomEvent<{ sampling: SamplingRecord }>>(window, 'mcp-sampling-request').then((e) => e.detail.sampling);
/** Resolve when a record reaches a status. */
function statusOf(hub: McpHub, branch: 'samplings' | 'elicitations', id: string, status: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if ((hub.store.state[branch][id] as { status?: string } | undefined)?.status !== status) return false;
      unsubscribe();
      resolve();
      return true;
    };
    const unsubscribe = hub.store.subscribe(() => void check());
    check();
  });
}

describe('the client answers back: server-everything (2025-11-25)', () => {
  it('declares elicitation (form and URL), sampling and roots, so server-everything lists all its tools', async () => {
    const hub = privateHub();
    hub.setSamplingHandler(async () => ({ text: 'x', model: 'm' }));
    const { catalogue } = await everything(hub);
    const names = catalogue.tools.map((t) => t.name);
    // 13 without client capabilities; + elicitation, URL elicitation, sampling, roots, and the
    // research-query tool it offers to clients that declare both elicitation and sampling
    expect(names.length, names.join(', ')).to.equal(17);
    expect(names).to.include.members([
      'trigger-elicitation-request',
      'trigger-url-elicitation',
      'trigger-sampling-request',
      'get-roots-list',
    ]);
  });

  it('without a sampling handler the sampling capability is not declared', async () => {
    const hub = privateHub();
    const { catalogue } = await everything(hub);
    expect(catalogue.tools.map((t) => t.name)).to.not.include('trigger-sampling-request');
    expect(catalogue.tools.map((t) => t.name)).to.include('trigger-elicitation-request');
  });

  it('elicitation form: invalid content is refused and changes nothing; valid content (defaults applied) reaches the tool', async () => {
    const hub = privateHub();
    const { id } = await everything(hub);
    const asked = pendingElicitation();
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    const e = await asked;
    expect(e.mode).to.equal('form');
    expect(e.serverId).to.equal(id);
    expect(e.host).to.equal(false);
    expect(hub.store.state.elicitations[e.id]!.status).to.equal('pending');
    expect(() => hub.respondToElicitation(e.id, { action: 'accept', content: { email: 'not an email' } })).to.throw(
      'content',
    );
    expect(hub.store.state.elicitations[e.id]!.status).to.equal('pending');
    expect(() => hub.respondToElicitation('eli_nope', { action: 'decline' })).to.throw('No pending elicitation');
    hub.respondToElicitation(e.id, { action: 'accept', content: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    const r = await call;
    expect(text(r)).to.contain('Ada Lovelace');
    expect(text(r)).to.contain('It was a dark and stormy night.'); // the schema's default, applied
    expect(hub.store.state.elicitations[e.id]!.status).to.equal('accepted');
    // nothing the user typed is kept
    expect(JSON.stringify(hub.store.state.elicitations)).to.not.contain('ada@example.com');
  });

  it('a host can take an elicitation over (preventDefault) and decline it', async () => {
    const hub = privateHub();
    const { id } = await everything(hub);
    const veto = (e: Event) => e.preventDefault();
    window.addEventListener('mcp-elicitation-request', veto, { once: true });
    const asked = new Promise<string>((resolve) =>
      hub.store.subscribe((s) => {
        const pending = Object.values(s.elicitations).find((x) => x.status === 'pending');
        if (pending) resolve(pending.id);
      }),
    );
    const call = hub.client(id).callTool('trigger-elicitation-request', {});
    const eid = await asked;
    expect(hub.store.state.elicitations[eid]!.host).to.equal(true);
    hub.respondToElicitation(eid, { action: 'decline' });
    expect(text(await call)).to.contain('declined');
  });

  it('sampling: approval, the host model, review with an edit, then the answer reaches the server', async () => {
    const hub = privateHub();
    const seen: SamplingRequest[] = [];
    hub.setSamplingHandler(async (req) => {
      seen.push(req);
      return { text: 'model says hi', model: 'demo-model' };
    });
    const { id } = await everything(hub);
    const asked = pendingSampling();
    const call = hub.client(id).callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 50 });
    const s = await asked;
    expect(s.status).to.equal('awaiting-approval');
    expect(s.maxTokens).to.equal(50);
    expect(s.messages[0]!.text).to.contain('Say hi');
    expect(seen.length, 'nothing runs before approval').to.equal(0);
    expect(() => hub.respondToSampling(s.id, { send: true })).to.throw('approve');
    hub.respondToSampling(s.id, { approve: true });
    await statusOf(hub, 'samplings', s.id, 'awaiting-review');
    expect(seen.length).to.equal(1);
    expect(hub.store.state.samplings[s.id]!.answer!.text).to.equal('model says hi');
    hub.respondToSampling(s.id, { send: true, text: 'edited by the user' });
    expect(text(await call)).to.contain('edited by the user');
    expect(hub.store.state.samplings[s.id]!.status).to.equal('sent');
  });

  it('sampling denied: the model is never asked and the server gets an error', async () => {
    const hub = privateHub();
    let asked = 0;
    hub.setSamplingHandler(async () => {
      asked++;
      return { text: 'x', model: 'm' };
    });
    const { id } = await everything(hub);
    const pending = pendingSampling();
    const call = hub
      .client(id)
      .callTool('trigger-sampling-request', { prompt: 'no', maxTokens: 10 })
      .then(
        (r) => text(r),
        (e: Error) => e.message,
      );
    hub.respondToSampling((await pending).id, { approve: false });
    expect(await call).to.match(/declined|error/i);
    expect(asked).to.equal(0);
  });

  it('a server with allowSampling false is refused without asking the user', async () => {
    const hub = privateHub();
    hub.setSamplingHandler(async () => ({ text: 'x', model: 'm' }));
    const { id } = await everything(hub);
    await hub.servers.update(id, { allowSampling: false });
    let events = 0;
    const count = () => events++;
    window.addEventListener('mcp-sampling-request', count);
    try {
      const r = await hub
        .client(id)
        .callTool('trigger-sampling-request', { prompt: 'no', maxTokens: 10 })
        .then(
          (res) => text(res),
          (e: Error) => e.message,
        );
      expect(r).to.match(/not allowed/i);
      expect(events).to.equal(0);
    } finally {
      window.removeEventListener('mcp-sampling-request', count);
    }
  });

  it('roots: the host list reaches the server; bad roots are refused and change nothing', async () => {
    const hub = privateHub();
    expect(() => hub.setRoots([{ uri: 'https://example.com' }])).to.throw('file://');
    hub.setRoots([{ uri: 'file:///home/ada/project', name: 'project' }]);
    const { id } = await everything(hub);
    // server-everything asks for roots/list after initialize and caches the answer: ask it until
    // that round trip has happened (each attempt is a real call, no timer)
    let last = '';
    for (let i = 0; i < 50 && !last.includes('file:///home/ada/project'); i++)
      last = text(await hub.client(id).callTool('get-roots-list', {}));
    expect(last).to.contain('file:///home/ada/project');
    expect(() => hub.setRoots([{ uri: 'file:///x', name: 'x'.repeat(201) }])).to.throw('roots.0.name');
    expect(last).to.contain('project');
  });

  it('log messages are kept per server (text only, bounded) and announced', async () => {
    const hub = privateHub();
    const { id } = await everything(hub);
    await hub.setLogLevel(id, 'debug');
    const logged = nextEvent<CustomEvent>(window, 'mcp-server-log', (e) => e.detail.serverId === id);
    await hub.client(id).callTool('toggle-simulated-logging', {});
    const entry = (await logged).detail.entry;
    expect(entry.text).to.be.a('string');
    expect(hub.store.state.logs[id]!.length).to.be.greaterThan(0);
    await hub.client(id).callTool('toggle-simulated-logging', {}); // stop it
    hub.clearLog(id);
    expect(hub.store.state.logs[id]).to.equal(undefined);
    await hub.setLogLevel(id, 'loud').then(
      () => expect.fail('accepted a bad level'),
      (e: Error) => expect(e.name).to.equal('McpConfigError'),
    );
  });
});

describe('the client answers back: 2026-07-28 input_required rounds', () => {
  it('an elicitation round goes through the same record and answer, then the call completes', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ans')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const asked = pendingElicitation();
    const call = hub.client(s.id).callTool('ask', { question: 'Ship it?' });
    const e = await asked;
    expect(e.message).to.equal('Ship it?');
    hub.respondToElicitation(e.id, { action: 'accept', content: { confirm: true } });
    expect(text(await call)).to.contain('confirmed');
  });
});

describe('the client answers back: 2026-07-28 sampling and URL rounds', () => {
  it('a sampling round is approved, answered by the host model, reviewed and sent', async () => {
    const hub = privateHub();
    hub.setSamplingHandler(async (req) => ({ text: `blue (${req.messages[0]!.text})`, model: 'demo' }), {
      review: false,
    });
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ans')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const asked = pendingSampling();
    const call = hub.client(s.id).callTool('ask-model', {});
    hub.respondToSampling((await asked).id, { approve: true });
    expect(text(await call)).to.contain('the model said: blue (Name a colour.)');
  });

  it('a URL round shows the domain and is accepted only by the user', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'm', url: `${urls.modern}/t/${unique('ans')}/strict/mcp`, retries: 0 });
    await hub.connect(s.id);
    const asked = pendingElicitation();
    const call = hub.client(s.id).callTool('ask-url', {});
    const e = await asked;
    expect(e.mode).to.equal('url');
    expect(e.domain).to.equal('accounts.example.com');
    expect(e.url).to.equal('https://accounts.example.com/link?x=1');
    hub.respondToElicitation(e.id, { action: 'accept' });
    expect(text(await call)).to.contain('url elicitation: accept');
  });
});
