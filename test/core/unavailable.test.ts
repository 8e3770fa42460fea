// Tools of a server that is down (issue 25 item 5): a server whose last connect failed is not
// offered to the model (toolsFor, every provider; budgets; modelTools), and a model's call to one
// of its tools is refused before any approval is asked, with an error that says to reconnect.
// The server going down is real: its URL moves to a port nothing listens on and the connect fails.
import { expect } from '@open-wc/testing';
import { McpConfigError, type McpHub, type ServerConfig } from '../../src/core/index.js';
import { errorText } from '../../src/internal/error-text.js';
import { fixtureTenant, privateHub, recordEvents, rejects, urls } from '../helpers.js';

const PROVIDERS = ['openai', 'openai-responses', 'anthropic', 'gemini'] as const;

/** Model-facing names in any provider's format. */
function names(tools: unknown[]): string[] {
  return (tools as any[]).flatMap((t) =>
    t.functionDeclarations ? t.functionDeclarations.map((f: any) => f.name) : [t.function?.name ?? t.name],
  );
}

/** Two servers, both connected; then `down`'s URL moves to a dead port and its connect fails. */
async function oneDown(): Promise<{ hub: McpHub; up: ServerConfig; down: ServerConfig; url: string }> {
  const hub = privateHub();
  const url = fixtureTenant().url;
  const up = await hub.servers.add({ name: 'up', url: fixtureTenant().url });
  const down = await hub.servers.add({ name: 'down', url, retries: 0 });
  await hub.connect(up.id);
  await hub.connect(down.id);
  await hub.servers.update(down.id, { url: `${urls.origins.dead}/mcp` });
  await rejects(hub.connect(down.id));
  expect(hub.status(down.id).status).to.equal('error');
  // what it offered is still known (the catalogue stays): only its connection is down
  expect(hub.catalogue(down.id)?.tools.length).to.be.greaterThan(0);
  return { hub, up, down, url };
}

describe('tools of a server that is down', () => {
  it('are not offered in any provider format, nor by modelTools; includeUnavailable gives the whole selection', async () => {
    const { hub } = await oneDown();
    for (const p of PROVIDERS) {
      const offered = names(hub.toolsFor(p));
      expect(offered, p).to.include('up__echo');
      expect(
        offered.filter((n) => n.startsWith('down__')),
        p,
      ).to.deep.equal([]);
    }
    expect(hub.modelTools().every((t) => t.name.startsWith('up__'))).to.equal(true);
    const all = hub.modelTools({ includeUnavailable: true }).map((t) => t.name);
    expect(all).to.include('down__echo');
    expect(names(hub.toolsFor('openai', { includeUnavailable: true }))).to.deep.equal(all);
  });

  it('a budget neither ranks nor pins them in', async () => {
    const { hub, down } = await oneDown();
    await hub.assistants.pin('default', down.id, 'echo');
    const picked = names(hub.toolsFor('openai', { query: 'echo a message back', maxTools: 3 }));
    expect(picked.length).to.be.within(1, 3);
    expect(picked.some((n) => n.startsWith('down__'))).to.equal(false);
    // with it included, the pinned tool is there
    const all = names(hub.toolsFor('openai', { query: 'echo', maxTools: 1, includeUnavailable: true }));
    expect(all).to.include('down__echo');
  });

  it('come back once the server is reconnected', async () => {
    const { hub, down, url } = await oneDown();
    await hub.servers.update(down.id, { url });
    await hub.connect(down.id);
    expect(names(hub.toolsFor('openai'))).to.include('down__echo');
  });

  it("a model's call is refused before approval, says to reconnect, and reaches the model as an error", async () => {
    const { hub } = await oneDown();
    const seen = recordEvents(window, [
      'mcp-tool-call-request',
      'mcp-tool-call-awaiting-approval',
      'mcp-tool-call-started',
      'mcp-tool-call-failed',
    ]);
    const r = await hub.callTool({ name: 'down__echo', arguments: { message: 'hi' } });
    seen.stop();
    expect(r.status).to.equal('error');
    expect(r.error?.code).to.equal('server-unavailable');
    expect(r.error?.message).to.match(/^Server "down" cannot be reached right now/);
    expect(r.error?.message).to.include('Reconnect the server');
    expect(r.error?.message).to.include('Its last connection failed: ');
    // a card shows the first sentence alone: it is whole
    expect(errorText(r.error!).summary).to.equal(
      'Server "down" cannot be reached right now, so the call was not sent.',
    );
    expect(r.startedAt).to.equal(undefined);
    expect(seen.seen.map((e) => e.type)).to.deep.equal(['mcp-tool-call-failed']);
    const out = await hub.runToolCalls('openai', {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'down__echo', arguments: '{"message":"x"}' } }],
    });
    expect(out.calls[0]!.error?.code).to.equal('server-unavailable');
    expect(JSON.stringify(out.messages)).to.include('Reconnect the server');
    // the working server is untouched by it
    await hub.assistants.update('default', { approval: 'auto' });
    expect((await hub.callTool({ name: 'up__echo', arguments: { message: 'ok' } })).status).to.equal('success');
  });

  it('a call a person starts ("Try it") is not refused: it connects again', async () => {
    const { hub, down } = await oneDown();
    const r = await hub.callTool({ serverId: down.id, tool: 'echo', source: 'user', arguments: { message: 'x' } });
    // it tried (and the dead port failed it), rather than being refused unsent
    expect(r.error?.code).to.not.equal('server-unavailable');
    expect(r.status).to.equal('error');
  });

  it('a wrong includeUnavailable is a McpConfigError and changes nothing', async () => {
    const { hub } = await oneDown();
    const before = hub.toolsFor('openai');
    const e = (() => {
      try {
        hub.toolsFor('openai', { includeUnavailable: 'yes' as never });
      } catch (err) {
        return err;
      }
    })();
    expect(e).to.be.instanceOf(McpConfigError);
    expect((e as McpConfigError).issues[0]!.path).to.equal('includeUnavailable');
    expect(hub.toolsFor('openai')).to.deep.equal(before);
  });
});
