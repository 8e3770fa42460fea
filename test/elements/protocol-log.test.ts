// The servers' "stderr" (issue 11 item 5): protocol failures the hub saw — a JSON-RPC error answer,
// a tool dropped from tools/list, a failed connect — land in the server's log ring as entries of
// kind `protocol`, are `mcp-server-log` events, and the explorer's log tab filters them by kind.
// Against the 2026-07-28 fixture (badtool flag: a tool with a non-object schema; rpc-error tool).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { McpToolExplorerElement, ServerLogEntry } from '../../src/index.js';
import { nextEvent, privateHub, unique, untilRendered, urls } from '../helpers.js';

const root = (el: Element) => el.shadowRoot!;
const q = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => root(el).querySelector(sel) as T;
const qa = (el: Element, sel: string) => [...root(el).querySelectorAll(sel)] as HTMLElement[];
type LogEvent = CustomEvent<{ serverId: string; entry: ServerLogEntry }>;

describe('protocol errors in the log (stderr-like view)', () => {
  it('a dropped tool and a JSON-RPC error are protocol entries; a tool error result is not', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'Modern',
      url: `${urls.modern}/t/${unique('stderr')}/badtool/mcp`,
      retries: 0,
    });
    const dropped = nextEvent<LogEvent>(hub, 'mcp-server-log', (e) => e.detail.entry.logger === 'tools/list');
    await hub.connect(s.id);
    const d = (await dropped).detail.entry;
    expect(d.kind).to.equal('protocol');
    expect(d.level).to.equal('warning');
    expect(d.text).to.contain('dropped "not-an-object"');

    const failed = nextEvent<LogEvent>(hub, 'mcp-server-log', (e) => e.detail.entry.logger === 'tools/call');
    const r = await hub.callTool({ serverId: s.id, tool: 'rpc-error', source: 'user' });
    expect(r.status).to.equal('error');
    const f = (await failed).detail.entry;
    expect(f).to.include({ kind: 'protocol', level: 'error' });
    expect(f.text).to.contain('rpc-error: [server]').and.to.contain('failing on purpose');

    const before = hub.store.state.logs[s.id]!.length;
    const toolError = await hub.callTool({ serverId: s.id, tool: 'fail', source: 'user' });
    expect(toolError.error?.code).to.equal('tool-error');
    expect(hub.store.state.logs[s.id]!.length, 'a tool error result is the tool’s, not the protocol’s').to.equal(
      before,
    );

    // the explorer's log tab: kind filter, badge, axe
    const el = await fixture<McpToolExplorerElement>(
      html`<mcp-tool-explorer .hub=${hub} server-id=${s.id}></mcp-tool-explorer>`,
    );
    q(el, '#tab-log').click();
    // two dropped tools (not-an-object, bad-header) and the JSON-RPC error
    const total = hub.store.state.logs[s.id]!.length;
    expect(total).to.equal(3);
    await untilRendered(el, () => qa(el, '.log-list li').length === total, 'the protocol entries');
    expect(qa(el, '.log-list li[data-kind=protocol] .kind').length).to.equal(total);
    const kind = q<HTMLSelectElement>(el, '#log-kind');
    kind.value = 'server';
    kind.dispatchEvent(new Event('change'));
    await untilRendered(el, () => qa(el, '.log-list li').length === 0, 'server messages only');
    expect(root(el).textContent).to.contain('No message at this level or above.');
    kind.value = 'protocol';
    kind.dispatchEvent(new Event('change'));
    await untilRendered(el, () => qa(el, '.log-list li').length === total, 'protocol errors only');
    await expect(el).to.be.accessible();
  });

  it('a failed connect is a protocol entry of the server', async () => {
    const hub = privateHub();
    // a port nothing listens on (the test peers listen on free ports, never 9)
    const s = await hub.servers.add({
      name: 'Down',
      url: 'http://127.0.0.1:9/mcp',
      retries: 0,
      transport: 'streamable-http',
    });
    const logged = nextEvent<LogEvent>(hub, 'mcp-server-log', (e) => e.detail.serverId === s.id);
    await hub.connect(s.id).catch(() => {});
    const e = (await logged).detail.entry;
    expect(e).to.include({ kind: 'protocol', level: 'error', logger: 'connect' });
    expect(e.text).to.match(/^\[network\]/);
  });
});
