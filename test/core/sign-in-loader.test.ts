// Sign-in is loaded only when a server needs it (src/core/sign-in-loader.ts): a page whose
// servers use no OAuth or machine credentials never fetches src/core/auth/sign-ins (seen in the
// browser's resource timing: the test runner serves every module as its own request).
import { expect } from '@open-wc/testing';
import { privateHub, unique, urls } from '../helpers.js';

const fetched = () =>
  performance
    .getEntriesByType('resource')
    .some((e) => /\/src\/core\/auth\/(sign-ins|provider|machine)\.(ts|js)/.test(e.name));

describe('sign-in loader', () => {
  it('loads sign-in the first time a server uses it, not before', async () => {
    // the page's own module graph is in by now (hundreds of requests: the default buffer of 250
    // entries is full); watch from here on. That nothing imports it statically is checked on
    // the build (test/node/lazy-sign-in.test.mjs).
    performance.setResourceTimingBufferSize(10000);
    performance.clearResourceTimings();
    const hub = privateHub();
    await hub.ready;
    await hub.servers.add({ name: 'Plain', url: `${urls.oauthMcp}/t/${unique('plain')}/mcp` });
    await hub.servers.add({
      name: 'Keyed',
      url: `${urls.oauthMcp}/t/${unique('plain')}/mcp`,
      auth: { type: 'bearer', token: 'not-oauth' },
    });
    expect(fetched(), 'sign-in loaded for servers without OAuth').to.equal(false);
    // an OAuth server: the module loads and shows it signed out
    const server = await hub.servers.add({
      name: 'Protected',
      url: `${urls.oauthMcp}/t/${unique('oauth')}/auto/mcp`,
      auth: { type: 'oauth' },
    });
    await new Promise<void>((resolve) => {
      const check = () => hub.store.state.signIns[server.id]?.status === 'signed-out';
      if (check()) return resolve();
      const off = hub.store.subscribe(() => {
        if (!check()) return;
        off();
        resolve();
      });
    });
    expect(fetched()).to.equal(true);
    // and works as before: a 401 is needs-sign-in
    await hub.connect(server.id).catch(() => {});
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
  });
});
