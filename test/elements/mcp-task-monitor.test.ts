// <mcp-task-monitor> against the tasks peer (test/fixtures/tasks-server.mjs): empty, loading,
// running (status message, cancel), finished (result on demand), failed; keyboard path, strings,
// theme, no leaked subscriptions. Tasks finish when the test says so (POST /finish).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { McpHub, McpTaskMonitorElement } from '../../src/index.js';
import type { McpTaskChangedEvent } from '../../src/events/index.js';
import { expectNoLeakedSubscriptions, nextEvent, privateHub, unique, untilRendered, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;
const qa = (el: Element, sel: string) => [...root(el).querySelectorAll(sel)] as HTMLElement[];

async function setup() {
  const base = `${urls.tasks}/t/${unique('monitor')}`;
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'Jobs', url: `${base}/mcp`, retries: 0 });
  await hub.connect(s.id);
  return { base, hub, serverId: s.id };
}
async function monitor(hub: McpHub) {
  const el = await fixture<McpTaskMonitorElement>(html`<mcp-task-monitor .hub=${hub}></mcp-task-monitor>`);
  await el.updateComplete;
  return el;
}
async function start(hub: McpHub, serverId: string, tool: string, text: string) {
  const created = nextEvent<McpTaskChangedEvent>(hub, 'mcp-task-changed', (e) => e.detail.reason === 'created');
  const done = hub.callTool({ serverId, tool, source: 'user', arguments: { text } });
  const { detail } = await created;
  return { done, callId: detail.call.id };
}

describe('<mcp-task-monitor>', () => {
  it('empty: says so, :state(empty), accessible', async () => {
    const el = await monitor(privateHub());
    await untilRendered(el, () => el.matches(':state(empty)'), 'empty state');
    expect(q(el, '.empty')?.textContent).to.contain('No tasks yet');
    expect(el.tasks).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('loading: while the hub loads its records, :state(loading), accessible', async () => {
    const hub = privateHub();
    const el = document.createElement('mcp-task-monitor');
    el.hub = hub; // the hub was just made: its records are still loading
    document.body.append(el);
    try {
      await el.updateComplete;
      expect(hub.store.state.ready, 'IndexedDB answers later than one render').to.equal(false);
      expect(el.matches(':state(loading)')).to.equal(true);
      expect(q(el, '[role=status]')?.textContent).to.contain('Loading tasks');
      await expect(el).to.be.accessible();
      await hub.ready;
      await untilRendered(el, () => !el.matches(':state(loading)'), 'loaded');
    } finally {
      el.remove();
    }
  });

  it('full: a running task with its status message, then its result on demand; keyboard only', async () => {
    const { base, hub, serverId } = await setup();
    const el = await monitor(hub);
    const { done, callId } = await start(hub, serverId, 'job', 'weekly <report>');
    await untilRendered(el, () => qa(el, '[part~=running] [part~=task]').length === 1, 'one running task');
    const row = q(el, `[data-call-id="${callId}"]`);
    expect(row.querySelector('.tool')!.textContent).to.equal('job');
    expect(row.querySelector('[part~=status]')!.getAttribute('data-status')).to.equal('working');
    // server text is text: the angle brackets are shown, no element made of them
    expect(row.querySelector('[part~=message]')!.textContent).to.equal('Working on "weekly <report>"…');
    expect(row.querySelector('report')).to.equal(null);
    expect(el.matches(':state(running)')).to.equal(true);
    await expect(el).to.be.accessible();

    await fetch(`${base}/finish`, { method: 'POST' });
    await done;
    await untilRendered(el, () => qa(el, '[part~=finished] [part~=task]').length === 1, 'finished');
    const button = q<HTMLButtonElement>(el, '[data-action=result]');
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    button.focus();
    await sendKeys({ press: 'Enter' });
    await untilRendered(el, () => q(el, '[part~=result]'), 'result shown');
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect(q(el, '[part~=result]').textContent).to.contain('done: weekly <report>');
    expect(q(el, '[role=status][aria-live=polite]').textContent).to.contain('Task job: Completed');
    await expect(el).to.be.accessible();
  });

  it('cancel: the button cancels the task on the server', async () => {
    const { base, hub, serverId } = await setup();
    const el = await monitor(hub);
    const { done } = await start(hub, serverId, 'job', 'long');
    await untilRendered(el, () => q(el, '[data-action=cancel]'), 'cancel button');
    const cancel = q<HTMLButtonElement>(el, '[data-action=cancel]');
    expect(cancel.getAttribute('aria-label')).to.equal('Cancel task job');
    cancel.focus();
    await sendKeys({ press: 'Enter' });
    expect((await done).status).to.equal('cancelled');
    await untilRendered(el, () => q(el, '[part~=finished] [part~=status]'), 'finished');
    expect(q(el, '[part~=finished] [part~=status]').getAttribute('data-status')).to.equal('cancelled');
    let cancelled = false;
    for (let i = 0; i < 100 && !cancelled; i++)
      cancelled = (await fetch(`${base}/tasks`).then((r) => r.json())).tasks[0]?.cancelRequested === true;
    expect(cancelled).to.equal(true);
  });

  it('error: a failed task shows the server error, :state(has-error), accessible', async () => {
    const { base, hub, serverId } = await setup();
    const el = await monitor(hub);
    const { done } = await start(hub, serverId, 'job-fail', 'boom');
    await fetch(`${base}/finish`, { method: 'POST' });
    await done;
    await untilRendered(el, () => q(el, '[part~=error]'), 'error shown');
    expect(q(el, '[part~=error]').textContent).to.contain('failing on purpose (boom)');
    expect(el.matches(':state(has-error)')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('strings are replaceable, server-id filters, theme="dark" applies', async () => {
    const { hub, serverId } = await setup();
    const el = await monitor(hub);
    el.strings = { heading: 'Aufgaben', empty: 'Keine Aufgaben.' };
    el.serverId = 'someone-else';
    el.setAttribute('theme', 'dark');
    await el.updateComplete;
    await start(hub, serverId, 'job', 'x');
    await el.updateComplete;
    expect(q(el, 'h2').textContent).to.equal('Aufgaben');
    expect(q(el, '.empty').textContent).to.equal('Keine Aufgaben.');
    const bg = getComputedStyle(q(el, 'section')).backgroundColor;
    expect(bg).to.equal('rgb(13, 17, 23)');
    el.serverId = serverId;
    await untilRendered(el, () => el.tasks.length === 1, 'the server’s task');
    await expect(el).to.be.accessible();
  });

  it('leaves no subscription behind', async () => {
    await expectNoLeakedSubscriptions('mcp-task-monitor');
  });
});
