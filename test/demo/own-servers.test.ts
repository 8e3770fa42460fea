// The demo's own servers follow `npm start`'s ports (issue 25 item 5): the saved server is moved
// to this start's URL (same id: selection and history stay), never duplicated, and a server the
// user removed is not brought back.
import { expect } from '@open-wc/testing';
import { ownServer } from '../../demo/own-servers.js';
import { privateHub } from '../helpers.js';

const FLAG = 'mcp-demo-seeded-test';
const KEY = 'mcp-demo-own-servers';

describe('demo: its own servers on new ports', () => {
  beforeEach(() => {
    localStorage.removeItem(FLAG);
    localStorage.removeItem(KEY);
  });
  after(() => {
    localStorage.removeItem(FLAG);
    localStorage.removeItem(KEY);
  });

  it('first visit adds it; a start on another port moves the same server there', async () => {
    const hub = privateHub();
    await ownServer(hub, 'everything', FLAG, { name: 'Everything', url: 'http://127.0.0.1:3001/mcp' });
    const [first] = hub.servers.list();
    expect(first!.url).to.equal('http://127.0.0.1:3001/mcp');
    await ownServer(hub, 'everything', FLAG, { name: 'Everything', url: 'http://127.0.0.1:40123/mcp' });
    expect(hub.servers.list().map((s) => [s.id, s.url])).to.deep.equal([[first!.id, 'http://127.0.0.1:40123/mcp']]);
    // and again the same start: nothing changes
    await ownServer(hub, 'everything', FLAG, { name: 'Everything', url: 'http://127.0.0.1:40123/mcp' });
    expect(hub.servers.list()).to.have.length(1);
  });

  it('a server the user removed stays removed', async () => {
    const hub = privateHub();
    await ownServer(hub, 'everything', FLAG, { name: 'Everything', url: 'http://127.0.0.1:3001/mcp' });
    await hub.servers.remove(hub.servers.list()[0]!.id);
    await ownServer(hub, 'everything', FLAG, { name: 'Everything', url: 'http://127.0.0.1:40999/mcp' });
    expect(hub.servers.list()).to.deep.equal([]);
  });

  it('saved by an earlier demo (no record of its own): found by name at a loopback address and moved', async () => {
    const hub = privateHub();
    localStorage.setItem(FLAG, '1');
    const old = await hub.servers.add({ name: 'Jobs', url: 'http://127.0.0.1:35001/t/x/mcp' });
    // a server of the user's own with the same name elsewhere is not touched
    const theirs = await hub.servers.add({ name: 'Jobs', url: 'https://jobs.example.com/t/x/mcp' });
    await ownServer(hub, 'tasks', FLAG, { name: 'Jobs', url: 'http://127.0.0.1:35777/t/x/mcp' });
    expect(hub.servers.get(old.id)!.url).to.equal('http://127.0.0.1:35777/t/x/mcp');
    expect(hub.servers.get(theirs.id)!.url).to.equal('https://jobs.example.com/t/x/mcp');
    expect(hub.servers.list()).to.have.length(2);
  });
});
