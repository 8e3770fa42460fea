// The connection code is a chunk the hub imports the first time it opens a session
// (docs/decisions/052-sdk-on-first-connect.md). When it cannot be fetched, the connect
// fails with a retryable McpConnectionError('network') that says what happened, nothing stored
// changes, and the next connect imports it again. Each test file is a page of its own, so nothing
// has imported it before this file.
import { expect } from '@open-wc/testing';
import { McpConnectionError } from '../../src/core/index.js';
import { replaceSessionImport } from '../../src/core/connections/session-loader.js';
import { privateHub, urls } from '../helpers.js';

describe('the connection chunk, when it cannot be fetched', () => {
  afterEach(() => replaceSessionImport());

  it('a connect fails as a network error, changes nothing stored, and the next connect loads it', async () => {
    let attempts = 0;
    replaceSessionImport(() => {
      attempts++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module: chunks/connect.js'));
    });
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Everything', url: urls.everything, retries: 0 });
    const stored = hub.servers.get(s.id);
    let error: unknown;
    await hub.connect(s.id).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(McpConnectionError);
    expect((error as McpConnectionError).code).to.equal('network');
    expect((error as Error).message).to.contain("mcp-elements' connection code");
    expect((error as Error).message).to.contain('Failed to fetch dynamically imported module');
    expect(hub.status(s.id).status).to.equal('error');
    expect(hub.servers.get(s.id), 'the server as stored').to.deep.equal(stored);
    expect(attempts).to.equal(1);

    // the network is back: the failed import was forgotten, so this connect imports it again
    replaceSessionImport(async (real) => {
      attempts++;
      return real();
    });
    const catalogue = await hub.connect(s.id);
    expect(attempts).to.equal(2);
    expect(catalogue.tools.map((t) => t.name)).to.include('echo');
    expect(hub.status(s.id).status).to.equal('connected');
    await hub.disconnect(s.id);
  });
});
