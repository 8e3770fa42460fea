// The connect budget (issue 13 audit): the server's timeout is one budget for the whole connect —
// every attempt and the backoff between them — not a budget per attempt (a hanging server used
// to stay "connecting" for 4 × 30 s by default). Progress (attempt n of m, seconds spent) is in
// the state and in <mcp-server-manager>.
import { expect, fixture, html } from '@open-wc/testing';
import { McpConnectionError, type ConnectionState } from '../../src/core/index.js';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { privateHub, rejects, unique, untilRendered, urls } from '../helpers.js';

const seen = (tenant: string) =>
  fetch(`${urls.faults}/f/${tenant}/seen`).then((r) => r.json()) as Promise<{ methods: string[] }>;

describe('connect budget', function () {
  this.timeout(30_000);

  it('a hanging server: one budget across retries, not one per attempt; the manager shows the attempt', async () => {
    const hub = privateHub();
    const tenant = unique('hang');
    const s = await hub.servers.add({
      name: 'hanging',
      url: `${urls.faults}/f/${tenant}/hangall/mcp`,
      timeout: 2,
      retries: 3,
    });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const p = hub.connect(s.id);
    const attempt = () => el.shadowRoot!.querySelector(`[data-server="${s.id}"] [part="attempt"]`)?.textContent ?? '';
    await untilRendered(el, () => /attempt 1 of 4, \d+ s of 2 s/.test(attempt()), 'attempt 1 of 4 shown');
    const state = hub.status(s.id) as ConnectionState;
    expect(state.status).to.equal('connecting');
    expect(state.attempt).to.include({ number: 1, of: 4 });
    expect(state.attempt!.deadline - state.attempt!.startedAt).to.equal(2000);
    const err = await rejects(p);
    expect(err).to.be.instanceOf(McpConnectionError);
    expect(err.code).to.equal('timeout');
    expect(err.message).to.equal('No connection within 2 s (attempt 1 of 4).');
    // the budget was spent by the first attempt: no second one was started after it
    expect((await seen(tenant)).methods).to.deep.equal(['(hung POST)']);
    expect(hub.status(s.id).status).to.equal('error');
    expect(hub.status(s.id).attempt).to.equal(undefined);
    await untilRendered(el, () => !attempt(), 'the attempt line gone');
  });

  it('a failing server: every attempt is shown in the state in order, within one budget', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'failing',
      url: `${urls.faults}/f/${unique('fail')}/status500/mcp`,
      timeout: 30,
      retries: 3,
    });
    const attempts: number[] = [];
    const off = hub.store.subscribe((st) => {
      const a = st.connections[s.id]?.attempt;
      if (a && attempts.at(-1) !== a.number) attempts.push(a.number);
    });
    const err = await rejects(hub.connect(s.id));
    off();
    expect(err.code).to.equal('http');
    expect(err.status).to.equal(500);
    expect(attempts).to.deep.equal([1, 2, 3, 4]);
  });
});
