// hub.client(id).complete() and hub.offersCompletions(id): `completion/complete` against the real
// reference server (its completable prompt and resource template), a server that declares no
// completions, and malformed params (refused before anything is sent).
import { expect } from '@open-wc/testing';
import { McpConfigError, McpConnectionError } from '../../src/core/index.js';
import { fixtureTenant, privateHub, rejects, urls } from '../helpers.js';

async function connected(url: string) {
  const hub = privateHub();
  const s = await hub.servers.add({ name: 'S', url });
  await hub.connect(s.id, { discovery: 'complete' });
  return { hub, id: s.id };
}

describe('completion/complete', () => {
  it('a prompt argument: values for the typed prefix, narrowed by the other arguments (context)', async () => {
    const { hub, id } = await connected(urls.everything);
    expect(hub.offersCompletions(id)).to.equal(true);
    const c = hub.client(id);
    const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
    const dept = await c.complete({ ref, argument: { name: 'department', value: 'S' } });
    expect(dept.completion.values).to.deep.equal(['Sales', 'Support']);
    const names = await c.complete({
      ref,
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(names.completion.values).to.deep.equal(['Alice', 'Bob', 'Charlie']);
  });

  it('a resource template variable', async () => {
    const { hub, id } = await connected(urls.everything);
    const tpl = hub.catalogue(id)!.resourceTemplates.find((t) => t.uriTemplate.endsWith('/text/{resourceId}'))!;
    const r = await hub
      .client(id)
      .complete({ ref: { type: 'ref/resource', uri: tpl.uriTemplate }, argument: { name: 'resourceId', value: '7' } });
    expect(r.completion.values).to.deep.equal(['7']);
  });

  it('a server without the capability: offersCompletions false, complete() rejects unsupported', async () => {
    const { hub, id } = await connected(fixtureTenant().url);
    expect(hub.offersCompletions(id)).to.equal(false);
    const e = await rejects(
      hub.client(id).complete({ ref: { type: 'ref/resource', uri: 'x://{a}' }, argument: { name: 'a', value: '' } }),
    );
    expect(e).to.be.instanceOf(McpConnectionError);
    expect(e.code).to.equal('unsupported');
    expect(hub.offersCompletions('no-such-server')).to.equal(false);
  });

  it('malformed params: a typed error naming the field, before anything is sent', async () => {
    const hub = privateHub();
    // not even a server: the params are checked first
    for (const [params, path] of [
      [{ ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } }, 'ref.type'],
      [{ ref: { type: 'ref/prompt' }, argument: { name: 'a', value: '' } }, 'ref.name'],
      [{ ref: { type: 'ref/resource', uri: '' }, argument: { name: 'a', value: '' } }, 'ref.uri'],
      [{ ref: { type: 'ref/prompt', name: 'p' }, argument: { value: '' } }, 'argument.name'],
      [{ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 3 } }, 'argument.value'],
      [{ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'x'.repeat(4097) } }, 'argument.value'],
      [
        {
          ref: { type: 'ref/prompt', name: 'p' },
          argument: { name: 'a', value: '' },
          context: { arguments: { b: 1 } },
        },
        'context.arguments',
      ],
    ] as const) {
      const e = await rejects(hub.client('none').complete(params as never));
      expect(e, path).to.be.instanceOf(McpConfigError);
      expect((e as McpConfigError).issues.map((i) => i.path)).to.include(path);
    }
  });
});
