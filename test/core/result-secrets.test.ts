import { expect } from '@open-wc/testing';
import type { ToolCallRecord } from '../../src/core/index.js';
import { fixtureTenant, privateHub, rawIdb, until } from '../helpers.js';

const TOKEN = 'tok-Result-Secret-4711';
const KEY = 'key-Header-Secret-0815';
const PASSWORD = 'pw-Basic-Secret-2342';

/** Every call event's detail, as JSON, while `run` runs. */
async function eventsDuring(run: () => Promise<unknown>): Promise<string> {
  const seen: string[] = [];
  const on = (e: Event) => seen.push(JSON.stringify((e as CustomEvent).detail));
  const types = ['mcp-tool-call-started', 'mcp-tool-call-completed', 'mcp-tool-call-failed'];
  for (const t of types) window.addEventListener(t, on);
  try {
    await run();
  } finally {
    for (const t of types) window.removeEventListener(t, on);
  }
  return seen.join('\n');
}

describe('a server that repeats the request headers in its result', () => {
  for (const [what, auth, secrets] of [
    ['bearer token and a secret header', { type: 'bearer', token: TOKEN }, [TOKEN, KEY]],
    ['basic password (and its base64)', { type: 'basic', username: 'bob', password: PASSWORD }, [PASSWORD, KEY]],
  ] as const) {
    it(`keeps the ${what} out of history, events and IndexedDB, for errors and successes`, async () => {
      const hub = privateHub();
      const t = fixtureTenant();
      const s = await hub.servers.add({
        name: 'fx',
        url: t.url,
        auth,
        headers: [{ name: 'X-Api-Key', value: KEY }],
      });
      await hub.connect(s.id);
      await hub.assistants.update('default', { approval: 'auto' });
      // the server really did receive them (so the test could fail)
      await hub.callTool({ name: 'fx__headers' });
      expect(JSON.stringify((await t.stats()).lastHeaders)).to.include(KEY);
      let failed!: ToolCallRecord;
      let echoed!: ToolCallRecord;
      const events = await eventsDuring(async () => {
        failed = await hub.callTool({ name: 'fx__headers_error' });
        echoed = await hub.callTool({ name: 'fx__headers' });
      });
      expect(failed.status).to.equal('error');
      expect(failed.error?.code).to.equal('tool-error');
      expect(echoed.status).to.equal('success');
      const basic = btoa(`bob:${PASSWORD}`);
      const kept = JSON.stringify([failed, echoed, hub.calls.list()]);
      for (const secret of [...secrets, basic]) {
        expect(kept).not.to.include(secret);
        expect(events).not.to.include(secret);
      }
      expect(kept).to.include('[redacted]');
      // what reached IndexedDB
      const stored = await until(async () => {
        const rows = await rawIdb(hub.storeName);
        const calls = rows.filter((r) => r.key === `call:${failed.id}` || r.key === `call:${echoed.id}`);
        return calls.length === 2 ? JSON.stringify(calls) : null;
      }, 'both records to be stored');
      for (const secret of [...secrets, basic]) expect(stored).not.to.include(secret);
    });
  }
});
