import { expect } from '@open-wc/testing';
import { createStore, set } from 'idb-keyval';
import { McpToolError, nameTools, suffixedName, type McpHub, type ServerConfig } from '../../src/core/index.js';
import { fixtureTenant, privateHub, rawIdb, unique, until } from '../helpers.js';

// Issue 23 item 4: a name once handed to a model keeps meaning the same server + tool. Two servers
// named "Same" on the fixture server, each with `echo` (and `add`, `slow`, …).

const names = (hub: McpHub, assistantId = 'default') =>
  new Map(
    hub.modelTools({ assistantId, includeUnavailable: true }).map((t) => [t.name, `${t.serverId}:${t.tool.name}`]),
  );
const input = (s: ServerConfig) => ({ serverKey: s.id, serverName: s.name, toolName: 'echo', rank: s.createdAt });
const echoOf = (hub: McpHub, id: string) =>
  hub.modelTools({ includeUnavailable: true }).find((t) => t.serverId === id && t.tool.name === 'echo')!.name;

/** Two servers named "Same"; `late` would keep `Same__echo` if names were given by age alone. */
async function twoSame(hub: McpHub) {
  const a = await hub.servers.add({ name: 'Same', url: fixtureTenant().url });
  const b = await hub.servers.add({ name: 'Same', url: fixtureTenant().url });
  const byAge = nameTools([input(a), input(b)]).get('Same__echo')!.serverKey;
  const [late, early] = byAge === a.id ? [a, b] : [b, a];
  return { early, late };
}

/** Until the catalogue of `id`, with the names given, is in IndexedDB. */
function untilNamesStored(storeName: string, id: string) {
  return until(
    async () =>
      (await rawIdb(storeName)).find((r) => r.key === `catalogue:${id}`)?.value as
        { givenNames?: { tools: Record<string, string> } } | undefined,
    `the catalogue of ${id} with its names`,
  ).then((v) => v.givenNames!.tools);
}

describe('names given to the model stay given', () => {
  it('a late collision keeps the first holder on its plain name, through selection changes and a reload', async () => {
    const storeName = unique('store');
    const hub = privateHub({ storeName });
    await hub.ready;
    const { early, late } = await twoSame(hub);
    await hub.assistants.update('default', { approval: 'auto' });

    // the server that connects first gets the plain name (a lone echo: no suffix)
    await hub.connect(early.id);
    expect(echoOf(hub, early.id)).to.equal('Same__echo');
    // the older server's echo becomes known only now: it gets the suffix, the name stays put
    await hub.connect(late.id);
    expect(echoOf(hub, early.id)).to.equal('Same__echo');
    expect(echoOf(hub, late.id)).to.equal(suffixedName(input(late)));
    const given = names(hub);
    const r = await hub.callTool({ name: 'Same__echo', arguments: { message: 'first' } });
    expect(r.serverId).to.equal(early.id);

    // (c) choosing tools, switching a server off and another assistant rename nothing
    await hub.assistants.setServer('default', early.id, ['add']);
    await hub.assistants.setServer('default', late.id, true);
    expect(echoOf(hub, late.id)).to.equal(suffixedName(input(late)));
    await hub.servers.update(early.id, { enabled: false });
    expect(names(hub, 'other').get(suffixedName(input(late)))).to.equal(`${late.id}:echo`);
    await hub.servers.update(early.id, { enabled: true });
    await hub.assistants.setServer('default', early.id, true);
    expect(names(hub)).to.deep.equal(given);

    // (d) a reload (a new hub on the same store) gives the same names before connecting anything
    expect((await untilNamesStored(storeName, late.id)).echo).to.equal(suffixedName(input(late)));
    expect((await untilNamesStored(storeName, early.id)).echo).to.equal('Same__echo');
    await hub.dispose();
    const again = privateHub({ storeName });
    await again.ready;
    expect(again.status(early.id).status).to.equal('disconnected');
    expect(names(again)).to.deep.equal(given);
  });

  it('a collision that goes away: the suffixed name still reaches its tool (callTool, runToolCalls)', async () => {
    const hub = privateHub();
    await hub.ready;
    const { early, late } = await twoSame(hub);
    await hub.assistants.update('default', { approval: 'auto' });
    await hub.connect(early.id);
    await hub.connect(late.id);
    const suffixed = echoOf(hub, late.id);
    expect(suffixed).to.equal(suffixedName(input(late)));

    await hub.servers.remove(early.id);
    // the younger tool keeps the name it was given: a running conversation still means it
    expect(echoOf(hub, late.id)).to.equal(suffixed);
    const call = await hub.callTool({ name: suffixed, arguments: { message: 'still me' } });
    expect([call.serverId, call.status]).to.deep.equal([late.id, 'success']);
    const run = await hub.runToolCalls('openai', {
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: suffixed, arguments: '{"message":"again"}' } }],
    });
    expect(run.calls.map((c) => [c.serverId, c.tool, c.status])).to.deep.equal([[late.id, 'echo', 'success']]);
    // the removed server's name means nothing now: not found, and nothing was called
    let error: unknown;
    await hub.callTool({ name: 'Same__echo', arguments: { message: 'x' } }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(McpToolError);
    expect((error as McpToolError).code).to.equal('unknown-tool');
  });

  it('names a server added anew fresh, and a renamed server anew (the rename is the user’s act)', async () => {
    const hub = privateHub();
    await hub.ready;
    const { early, late } = await twoSame(hub);
    await hub.connect(early.id);
    await hub.connect(late.id);
    await hub.servers.remove(early.id);
    // a third "Same" takes no name already given: the free plain name goes to it
    const third = await hub.servers.add({ name: 'Same', url: fixtureTenant().url });
    await hub.connect(third.id);
    expect(echoOf(hub, third.id)).to.equal('Same__echo');
    expect(echoOf(hub, late.id)).to.equal(suffixedName(input(late)));
    await hub.servers.update(late.id, { name: 'Other' });
    expect(echoOf(hub, late.id)).to.equal('Other__echo');
    expect(echoOf(hub, third.id)).to.equal('Same__echo');
  });

  it('a stored table with a name no provider accepts is set aside with the catalogue, with a warning', async () => {
    const storeName = unique('store');
    const hub = privateHub({ storeName });
    await hub.ready;
    const s = await hub.servers.add({ name: 'Fx', url: fixtureTenant().url });
    await hub.connect(s.id);
    const stored = (await rawIdb(storeName)).find((r) => r.key === `catalogue:${s.id}`)!.value as Record<
      string,
      unknown
    >;
    await hub.dispose();
    const bad = { ...stored, givenNames: { serverName: 'Fx', tools: { echo: 'Fx echo; DROP' } } };
    await set(`catalogue:${s.id}`, bad, createStore(storeName, 'records'));
    const again = privateHub({ storeName, logger: { warn: () => {} } });
    await again.ready;
    expect(again.catalogue(s.id)).to.equal(undefined);
    expect(again.servers.get(s.id)?.name).to.equal('Fx');
    expect(again.store.state.warnings.join(' ')).to.contain(`catalogue:${s.id}`);
    // once connected again, the tool is named as before, from the server's name
    await again.connect(s.id);
    expect(echoOf(again, s.id)).to.equal('Fx__echo');
  });
});
