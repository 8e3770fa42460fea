// The schema validator is a chunk of its own (docs/decisions/053-validator-chunk.md, "The validator on first
// use"): before it is loaded the synchronous checks fail with a typed error instead of judging
// nothing; a call made before it arrived waits for it, ends `error` (network) when it cannot be
// fetched and `cancelled` when cancelled meanwhile, with nothing sent. This file must not load
// the validator (no connect): each test file is a page of its own.
import { expect } from '@open-wc/testing';
import {
  argumentIssues,
  McpElementsError,
  validateArguments,
  validatorLoaded,
  type Tool,
} from '../../src/core/index.js';
import { replaceValidatorImport } from '../../src/core/calls/schema-validator.js';
import { privateHub, urls } from '../helpers.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tool = { name: 'weather', inputSchema: schema } as Tool;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('the schema validator, loaded on first use', () => {
  it('refuses to judge before it is loaded, with a typed error that says what to do', () => {
    expect(validatorLoaded()).to.equal(false);
    for (const check of [() => validateArguments(tool, {}), () => argumentIssues(tool, {})]) {
      const e = thrown(check);
      expect(e).to.be.instanceOf(McpElementsError);
      expect((e as McpElementsError).code).to.equal('validator-not-loaded');
      expect((e as Error).message).to.contain('loadValidator()');
    }
    expect(validatorLoaded(), 'a refused check loads nothing').to.equal(false);
  });

  /** A hub whose server's tools are known (a catalogue from an earlier page) but not connected. */
  async function knownTools() {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Weather', url: urls.everything, retries: 0 });
    hub.store.update((st) => ({
      ...st,
      catalogues: {
        ...st.catalogues,
        [s.id]: { serverId: s.id, tools: [tool], resources: [], resourceTemplates: [], prompts: [], discoveredAt: 1 },
      },
    }));
    return { hub, s };
  }
  it('a call before the validator arrived ends as a network error when it cannot be fetched', async () => {
    replaceValidatorImport(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    try {
      const { hub, s } = await knownTools();
      const record = await hub.callTool({
        serverId: s.id,
        tool: 'weather',
        arguments: { city: 'Oslo' },
        source: 'user',
      });
      expect(record.status).to.equal('error');
      expect(record.error?.code).to.equal('network');
      expect(record.error?.message).to.contain('schema validator');
      expect(hub.status(s.id).status, 'nothing was sent').to.equal('disconnected');
      expect(hub.calls.get(record.id)?.status).to.equal('error');
      expect(validatorLoaded()).to.equal(false);
    } finally {
      replaceValidatorImport();
    }
  });

  it('a call cancelled while the validator loads ends cancelled, and nothing is sent', async () => {
    let asked!: () => void;
    const importAsked = new Promise<void>((r) => (asked = r));
    let arrive!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    replaceValidatorImport(async (real) => {
      asked();
      await arrived;
      return real();
    });
    try {
      const { hub, s } = await knownTools();
      let id = '';
      const call = hub.callTool({
        serverId: s.id,
        tool: 'weather',
        arguments: {},
        source: 'user',
        onCall: (r) => (id = r.id),
      });
      await importAsked;
      hub.calls.cancel(id);
      arrive();
      const record = await call;
      expect(record.status).to.equal('cancelled');
      expect(record.error?.code, 'not judged invalid after the cancel').to.equal('cancelled');
      expect(hub.status(s.id).status, 'nothing was sent').to.equal('disconnected');
    } finally {
      replaceValidatorImport();
    }
  });
});
