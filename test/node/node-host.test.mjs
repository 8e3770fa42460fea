// A host without a browser (Node, a backend, a CLI), through the documented API only: records in
// memory (`storage: new MemoryStorage()`, no IndexedDB here: this file imports no fake), events on
// the hub, `hub.connect(id, { signIn: { open } })` against a real authorization server
// (oidc-provider, test/fixtures/oauth-server.mjs), answers given inside the event's listener, and
// skills (SEP-2640) from the SDK's own skills server (test/fixtures/skills-server.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browse, nodeHub, unique } from './node-host-helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const urls = JSON.parse(process.env.MCP_TEST_SERVERS ?? '{}');
const core = await import(path.join(root, 'dist/core/index.js'));
const { McpConfigError, McpConnectionError, McpNotFoundError } = core;

const oauthUrl = () => `${urls.oauthMcp}/t/${unique('node')}/auto/mcp`;

test('no IndexedDB in this process: the memory storage option is the whole story', async () => {
  assert.equal(typeof indexedDB, 'undefined');
  const hub = nodeHub('node-host');
  const warnings = [];
  hub.addEventListener('mcp-storage-degraded', (e) => warnings.push(e.detail.reason));
  await hub.ready;
  const s = await hub.servers.add({ name: 'x', url: urls.everything, auth: { type: 'bearer', token: 'sealed' } });
  assert.match(s.auth.token.secretRef, /^sec_/);
  assert.deepEqual(hub.store.state.storage, { mode: 'memory' });
  assert.deepEqual(warnings, []);
  await hub.dispose();
});

test('hub.connect(id, { signIn }): signs in when the server asks and resolves connected; one sign-in', async () => {
  const hub = nodeHub('node-host');
  const opened = [];
  const events = [];
  for (const type of ['mcp-sign-in-required', 'mcp-sign-in-completed', 'mcp-sign-in-failed'])
    hub.addEventListener(type, () => events.push(type));
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  const catalogue = await hub.connect(s.id, {
    signIn: {
      open: (url) => {
        opened.push(url);
        return browse(url);
      },
    },
  });
  assert.ok(catalogue.tools.some((t) => t.name === 'whoami'));
  assert.equal(hub.status(s.id).status, 'connected');
  assert.equal(opened.length, 1);
  assert.deepEqual(events, ['mcp-sign-in-required', 'mcp-sign-in-completed']);
  const who = await hub.client(s.id).callTool('whoami');
  assert.match(who.content[0].text, /mcp:tools/);
  await hub.dispose();
});

test('two connects with signIn at once share one sign-in (queued per server)', async () => {
  const hub = nodeHub('node-host');
  let opened = 0;
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  const signIn = { open: (url) => (opened++, browse(url)) };
  const [a, b] = await Promise.all([hub.connect(s.id, { signIn }), hub.connect(s.id, { signIn })]);
  assert.ok(a.tools.length && b.tools.length);
  assert.equal(opened, 1);
  assert.equal(hub.status(s.id).status, 'connected');
  await hub.dispose();
});

test('signIn() resolves with the state it reached, after its reconnect', async () => {
  const hub = nodeHub('node-host');
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  await assert.rejects(hub.connect(s.id), { code: 'sign-in-required' });
  const state = await hub.signIn(s.id, { open: browse });
  assert.equal(state.status, 'connected');
  assert.equal(hub.status(s.id).status, 'connected');
  assert.ok(hub.catalogue(s.id).tools.some((t) => t.name === 'whoami'));
  await hub.dispose();
});

test('a failed code exchange: mcp-sign-in-failed fires once and signIn rejects with it', async () => {
  const hub = nodeHub('node-host');
  const failed = [];
  hub.addEventListener('mcp-sign-in-failed', (e) => failed.push(e.detail.error.code));
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  await assert.rejects(hub.connect(s.id), { code: 'sign-in-required' });
  const error = await hub
    .signIn(s.id, {
      open: async (url) => {
        const back = new URL(await browse(url));
        back.searchParams.set('code', 'not-the-code');
        return back.href;
      },
    })
    .then(
      () => undefined,
      (e) => e,
    );
  assert.equal(error?.name, 'McpAuthError');
  assert.deepEqual(failed, [error.code]);
  assert.equal(hub.store.state.signIns[s.id]?.status, 'signed-out');
  await hub.dispose();
});

test("connect with signIn stops after maxSignIns with the server's refusal", async () => {
  const hub = nodeHub('node-host');
  let opened = 0;
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  await assert.rejects(hub.connect(s.id, { signIn: { open: () => void opened++, maxSignIns: 0 } }), {
    name: 'McpAuthError',
    code: 'sign-in-required',
  });
  assert.equal(opened, 0);
  assert.equal(hub.status(s.id).status, 'needs-sign-in');
  await hub.dispose();
});

test('connect with a bad signIn option: McpConfigError, nothing happens', async () => {
  const hub = nodeHub('node-host');
  const s = await hub.servers.add({ name: 'Protected', url: oauthUrl(), auth: { type: 'oauth' } });
  for (const signIn of ['yes', { open: 'https://example.com' }, { maxSignIns: -1 }, { maxSignIns: 1.5 }])
    await assert.rejects(hub.connect(s.id, { signIn }), McpConfigError, JSON.stringify(signIn));
  assert.equal(hub.status(s.id).status, 'disconnected');
  await hub.dispose();
});

test('answers given synchronously inside mcp-elicitation-request and mcp-sampling-request', async () => {
  const hub = nodeHub('node-host');
  hub.setSamplingHandler(async () => ({ text: 'the model answered', model: 'node-model' }), { review: false });
  const errors = [];
  hub.addEventListener('mcp-elicitation-request', (e) => {
    try {
      hub.respondToElicitation(e.detail.elicitation.id, {
        action: 'accept',
        content: { name: 'Ada Lovelace', email: 'ada@example.com' },
      });
    } catch (err) {
      errors.push(err);
    }
  });
  hub.addEventListener('mcp-sampling-request', (e) => {
    try {
      hub.respondToSampling(e.detail.sampling.id, { approve: true });
    } catch (err) {
      errors.push(err);
    }
  });
  const s = await hub.servers.add({ name: 'everything', url: urls.everything, retries: 0 });
  await hub.connect(s.id);
  const elicited = await hub.client(s.id).callTool('trigger-elicitation-request', {});
  assert.match(JSON.stringify(elicited.content), /Ada Lovelace/);
  const sampled = await hub.client(s.id).callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 });
  assert.match(JSON.stringify(sampled.content), /the model answered/);
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
  );
  const statuses = [...Object.values(hub.store.state.elicitations), ...Object.values(hub.store.state.samplings)].map(
    (r) => r.status,
  );
  assert.deepEqual(statuses.sort(), ['accepted', 'sent']);
  await hub.dispose();
});

test('a host that takes an elicitation over and answers in the listener: the record says host, and is answered', async () => {
  const hub = nodeHub('node-host');
  hub.addEventListener('mcp-elicitation-request', (e) => {
    e.preventDefault();
    hub.respondToElicitation(e.detail.elicitation.id, { action: 'decline' });
  });
  const s = await hub.servers.add({ name: 'everything', url: urls.everything, retries: 0 });
  await hub.connect(s.id);
  const r = await hub.client(s.id).callTool('trigger-elicitation-request', {});
  assert.match(JSON.stringify(r.content), /decline/i);
  const [record] = Object.values(hub.store.state.elicitations);
  assert.equal(record.status, 'declined');
  assert.equal(record.host, true);
  await hub.dispose();
});

// ---- skills (SEP-2640) -------------------------------------------------------------------------

const skillsTenant = () => {
  const base = `${urls.skills}/t/${unique('skills')}`;
  return {
    url: `${base}/mcp`,
    reads: async () => (await (await fetch(`${base}/seen`)).json()).calls.map((c) => c.read),
  };
};

test('skills: listed without reading a file; one loaded and verified on demand, announced; a file read by name', async () => {
  const hub = nodeHub('node-host');
  const t = skillsTenant();
  const loadedEvents = [];
  hub.addEventListener('mcp-skill-loaded', (e) => loadedEvents.push(e.detail));
  const s = await hub.servers.add({ name: 'skills', url: t.url, retries: 0 });
  await hub.connect(s.id, { discovery: 'complete' });
  assert.equal(hub.offersSkills(s.id), true);
  const listed = await hub.listSkills(s.id);
  assert.deepEqual(
    listed.map((x) => x.name),
    ['pdf-processing', 'release-notes'],
  );
  const pdf = listed[0];
  assert.equal(pdf.uri, 'skill://pdf-processing/SKILL.md');
  assert.equal(pdf.description, 'Extract, fill, and assemble PDF documents');
  assert.deepEqual(
    pdf.files.map((f) => f.uri),
    ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md'],
  );
  assert.ok(Object.isFrozen(pdf));
  assert.deepEqual(await t.reads(), [], 'connecting and listing read no skill file');

  const loaded = await hub.loadSkill(s.id, pdf.uri);
  assert.equal(loaded.verified, true);
  assert.match(loaded.body, /^# PDF processing/);
  assert.match(loaded.text, /^---\nname: pdf-processing/);
  assert.equal(loadedEvents.length, 1);
  assert.deepEqual(
    { ...loadedEvents[0] },
    {
      serverId: s.id,
      uri: pdf.uri,
      name: 'pdf-processing',
      description: pdf.description,
      body: loaded.body,
      text: loaded.text,
      verified: true,
    },
  );
  assert.deepEqual(await t.reads(), [pdf.uri], 'loading read SKILL.md only');

  const forms = await hub.readSkillFile(s.id, pdf.uri, 'references/FORMS.md');
  assert.equal(forms.verified, true);
  assert.match(forms.text, /Fill every field/);
  assert.deepEqual(await t.reads(), [pdf.uri, 'skill://pdf-processing/references/FORMS.md']);
  await hub.dispose();
});

test('skills: bad input and servers without skills get typed errors and change nothing', async () => {
  const hub = nodeHub('node-host');
  const t = skillsTenant();
  const loadedEvents = [];
  hub.addEventListener('mcp-skill-loaded', (e) => loadedEvents.push(e.detail));
  const s = await hub.servers.add({ name: 'skills', url: t.url, retries: 0 });
  // not connected yet
  await assert.rejects(hub.listSkills(s.id), (e) => e instanceof McpConnectionError && e.code === 'not-connected');
  await hub.connect(s.id);
  await assert.rejects(hub.listSkills('srv_nope'), McpNotFoundError);
  for (const uri of ['', 'no scheme', 42, 'skill://a b/SKILL.md'])
    await assert.rejects(hub.loadSkill(s.id, uri), McpConfigError, String(uri));
  await assert.rejects(hub.readSkillFile(s.id, 'skill://pdf-processing/SKILL.md', ''), McpConfigError);
  // a file the skill does not list is refused before any request
  await hub.listSkills(s.id);
  await assert.rejects(
    hub.readSkillFile(s.id, 'skill://pdf-processing/SKILL.md', 'references/SECRET.md'),
    (e) => e.name === 'McpSkillError' && e.code === 'unlisted',
  );
  assert.deepEqual(await t.reads(), []);
  assert.equal(loadedEvents.length, 0);
  // a server that offers no skills
  const e = await hub.servers.add({ name: 'everything', url: urls.everything, retries: 0 });
  await hub.connect(e.id);
  assert.equal(hub.offersSkills(e.id), false);
  await assert.rejects(hub.listSkills(e.id), (err) => err instanceof McpConnectionError && err.code === 'unsupported');
  await hub.dispose();
});
