// Calls that run as server-side tasks: both forms (2025-11-25 experimental, 2026-07-28 extension)
// against the tasks peer (test/fixtures/tasks-server.mjs), polling, status messages, cancel,
// failure, and a task that outlives a reload. Tasks finish when the test says so (POST /finish).
import { expect } from '@open-wc/testing';
import { McpHub, type ToolCallRecord } from '../../src/core/index.js';
import type { McpElicitationRequestEvent, McpTaskChangedEvent } from '../../src/events/index.js';
import { nextEvent, privateHub, recordEvents, unique, urls } from '../helpers.js';

interface PeerTask {
  taskId: string;
  tool: string;
  era: string;
  status: string;
  cancelRequested: boolean;
}
const tenant = () => `${urls.tasks}/t/${unique('tasks')}`;
const finish = (base: string) => fetch(`${base}/finish`, { method: 'POST' });
const peerTasks = (base: string) =>
  fetch(`${base}/tasks`)
    .then((r) => r.json())
    .then((j: { tasks: PeerTask[] }) => j.tasks);
const taskEvent = (hub: EventTarget, reason: string, callId?: string) =>
  nextEvent<McpTaskChangedEvent>(
    hub,
    'mcp-task-changed',
    (e) => e.detail.reason === reason && (!callId || e.detail.call.id === callId),
  );
const text = (r: ToolCallRecord) => JSON.stringify(r.result?.content ?? []);

for (const revision of ['2026-07-28', '2025-11-25'] as const) {
  describe(`tasks, ${revision} form`, () => {
    async function setup() {
      const base = tenant();
      const hub = privateHub();
      const s = await hub.servers.add({ name: 'tasks', url: `${base}/mcp`, revision, retries: 0 });
      await hub.connect(s.id);
      return { base, hub, serverId: s.id };
    }

    it('runs a task-capable tool as a task, follows it and shows its result', async () => {
      const { base, hub, serverId } = await setup();
      const events = recordEvents(window, ['mcp-task-changed']);
      const created = taskEvent(hub, 'created');
      const done = hub.callTool({ serverId, tool: 'job', source: 'user', arguments: { text: 'report' } });
      const c = await created;
      expect(c.detail.task.form).to.equal(revision);
      expect(c.detail.task.status).to.equal('working');
      expect(c.detail.task.statusMessage).to.equal('Working on "report"…');
      expect(c.detail.call.status).to.equal('running');
      expect(c.detail.call.task?.id).to.equal(c.detail.task.id);
      expect(Object.isFrozen(c.detail)).to.equal(true);
      expect(hub.calls.get(c.detail.call.id)?.task?.id).to.equal(c.detail.task.id);
      const [peer] = await peerTasks(base);
      expect(peer.taskId).to.equal(c.detail.task.id);
      expect(peer.era).to.equal(revision);

      const ended = taskEvent(hub, 'ended');
      await finish(base);
      const record = await done;
      expect(record.status).to.equal('success');
      expect(text(record)).to.contain('done: report');
      expect(record.task?.status).to.equal('completed');
      expect((await ended).detail.task.status).to.equal('completed');
      if (revision === '2026-07-28') {
        // tasks/get is routed by task id (the extension's Mcp-Name rule)
        const seen = (await fetch(`${base}/seen`).then((r) => r.json())) as {
          requests: { headers: Record<string, string>; rpc?: { method?: string } }[];
        };
        const polls = seen.requests.filter((r) => r.rpc?.method === 'tasks/get');
        expect(polls.length).to.be.greaterThan(0);
        for (const p of polls) expect(p.headers['mcp-name']).to.equal(c.detail.task.id);
      }
      events.stop();
      // each hub event reaches window once
      const onWindow = events.seen.filter((e) => (e as McpTaskChangedEvent).detail.call.id === record.id);
      expect(onWindow.map((e) => (e as McpTaskChangedEvent).detail.reason)).to.deep.equal(['created', 'ended']);
    });

    it('reports a new status message', async () => {
      const { base, hub, serverId } = await setup();
      const created = taskEvent(hub, 'created');
      const done = hub.callTool({ serverId, tool: 'job', source: 'user', arguments: { text: 'x' } });
      await created;
      const updated = taskEvent(hub, 'updated');
      await fetch(`${base}/status?m=${encodeURIComponent('Half way <b>there</b>')}`, { method: 'POST' });
      const u = await updated;
      expect(u.detail.task.statusMessage).to.equal('Half way <b>there</b>');
      expect(u.detail.task.status).to.equal('working');
      await finish(base);
      expect((await done).status).to.equal('success');
    });

    it('cancel tells the server (tasks/cancel) and ends the call cancelled', async () => {
      const { base, hub, serverId } = await setup();
      const created = taskEvent(hub, 'created');
      const done = hub.callTool({ serverId, tool: 'job', source: 'user', arguments: { text: 'long' } });
      const { detail } = await created;
      hub.calls.cancel(detail.call.id);
      const record = await done;
      expect(record.status).to.equal('cancelled');
      // tasks/cancel is sent beside the abort; ask the peer until it has seen it (each ask is a
      // round trip, not a timer)
      let seen = false;
      for (let i = 0; i < 100 && !seen; i++) seen = (await peerTasks(base))[0]?.cancelRequested === true;
      expect(seen, 'the server got tasks/cancel').to.equal(true);
    });

    it('a task that fails ends the call with the server error', async () => {
      const { base, hub, serverId } = await setup();
      const created = taskEvent(hub, 'created');
      const done = hub.callTool({ serverId, tool: 'job-fail', source: 'user', arguments: { text: 'boom' } });
      await created;
      await finish(base);
      const record = await done;
      expect(record.status).to.equal('error');
      expect(record.error?.code).to.equal('server');
      expect(record.error?.message).to.contain('failing on purpose (boom)');
    });

    it('a plain tool is still a plain call (no task)', async () => {
      const { base, hub, serverId } = await setup();
      const record = await hub.callTool({ serverId, tool: 'say', source: 'user', arguments: { message: 'hi' } });
      expect(record.status).to.equal('success');
      expect(record.task).to.equal(undefined);
      expect(await peerTasks(base)).to.deep.equal([]);
    });

    it('a task survives a reload: the next page follows it and shows the result', async () => {
      const base = tenant();
      const storeName = unique('store');
      const first = new McpHub({ storeName });
      const s = await first.servers.add({ name: 'tasks', url: `${base}/mcp`, revision, retries: 0 });
      await first.connect(s.id);
      const created = taskEvent(first, 'created');
      const pending = first.callTool({ serverId: s.id, tool: 'job', source: 'user', arguments: { text: 'later' } });
      const { detail } = await created;
      await first.dispose(); // the page goes away with the task running
      const left = await pending;
      expect(left.status, 'a call with a task is not settled when the page closes').to.equal('running');

      const second = new McpHub({ storeName });
      try {
        const resumed = taskEvent(second, 'resumed', detail.call.id);
        await second.ready;
        const loaded = second.calls.get(detail.call.id)!;
        expect(loaded.status, 'loaded as running, not interrupted').to.equal('running');
        expect(loaded.task?.id).to.equal(detail.task.id);
        await resumed;
        const completed = nextEvent(second, 'mcp-tool-call-completed');
        await finish(base);
        await completed;
        const record = second.calls.get(detail.call.id)!;
        expect(record.status).to.equal('success');
        expect(text(record)).to.contain('done: later');
      } finally {
        await second.dispose();
      }
    });
  });
}

describe('tasks, 2026-07-28: a task that needs input', () => {
  it('input_required: its form is asked in the call (the card shows it), answered with tasks/update, then the task goes on', async () => {
    const base = tenant();
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'tasks', url: `${base}/mcp`, revision: '2026-07-28', retries: 0 });
    await hub.connect(s.id);
    const created = taskEvent(hub, 'created');
    const asked = nextEvent<McpElicitationRequestEvent>(hub, 'mcp-elicitation-request');
    const done = hub.callTool({ serverId: s.id, tool: 'job-ask', source: 'user', arguments: { text: 'audit' } });
    const c = await created;
    expect(c.detail.task.status).to.equal('input_required');
    expect(c.detail.task.statusMessage).to.equal('Waiting for a name.');
    const { elicitation } = (await asked).detail;
    expect(elicitation.mode).to.equal('form');
    expect(elicitation.message).to.equal('Who is the job for?');
    expect(elicitation.callId, 'linked to the call: its card shows the form').to.equal(c.detail.call.id);
    const working = nextEvent<McpTaskChangedEvent>(
      hub,
      'mcp-task-changed',
      (e) => e.detail.reason === 'updated' && e.detail.task.status === 'working',
    );
    hub.respondToElicitation(elicitation.id, { action: 'accept', content: { name: 'Ada' } });
    expect((await working).detail.task.statusMessage).to.equal('Working for Ada…');
    const peer = (await fetch(`${base}/tasks`).then((r) => r.json())) as { updates: number };
    expect(peer.updates, 'one tasks/update, however often the request was seen while polling').to.equal(1);
    await finish(base);
    const record = await done;
    expect(record.status).to.equal('success');
    expect(text(record)).to.contain('done: audit for Ada');
  });
});
