// `npm start` prints the demo's addresses and nothing else on the Node versions we support (issue
// 38): oidc-provider (the demo's and the tests' authorization server) used to add three warnings —
// its quick-start memory adapter and development interactions (now configured away: our own
// adapter instance and interaction handlers) and, on Node 20, "Unsupported runtime" (left out on
// 20.19+ only, by exact text: test/fixtures/oidc-provider.mjs). A sign-in through those handlers
// still works, and any other warning still reaches the console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quietRuntimeWarning } from '../fixtures/oidc-provider.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Run `code` (an ES module) in a fresh Node; its stdout and stderr. */
function node(code) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, out }));
  });
}

test(`the authorization server starts without a word on Node ${process.versions.node}, and a sign-in goes through its pages`, async () => {
  const { status, out } = await node(`
    import { startOAuthServers } from './test/fixtures/oauth-server.mjs';
    const s = await startOAuthServers();
    // a browser's sign-in, by hand: registration, the authorization request, our login and
    // consent forms (finishInteraction), back to the redirect URI with a code
    const redirect = 'http://127.0.0.1:9/cb';
    const reg = await (await fetch(s.issuer + '/reg', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] }) })).json();
    let cookies = [];
    const go = async (url, init = {}) => {
      const r = await fetch(new URL(url, s.issuer), { ...init, redirect: 'manual', headers: { ...init.headers, cookie: cookies.join('; ') } });
      for (const c of r.headers.getSetCookie()) cookies = [...cookies.filter((k) => !k.startsWith(c.split('=')[0] + '=')), c.split(';')[0]];
      return r;
    };
    const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: redirect, response_type: 'code', scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'st' });
    let r = await go('/auth?' + q);
    const form = (prompt, extra = {}) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt, ...extra }).toString() });
    const steps = [];
    for (let i = 0; i < 10 && r.status >= 300 && r.status < 400; i++) {
      const at = new URL(r.headers.get('location'), s.issuer);
      if (at.href.startsWith(redirect)) { steps.push('code=' + !!at.searchParams.get('code')); break; }
      if (/^\\/interaction\\/[^/]+$/.test(at.pathname)) {
        const page = await (await go(at.pathname)).text();
        const prompt = /name="prompt" value="(\\w+)"/.exec(page)[1];
        steps.push(prompt);
        r = await go(at.pathname, form(prompt, prompt === 'login' ? { login: 'ada', password: 'x' } : {}));
      } else r = await go(at.pathname + at.search);
    }
    console.log(JSON.stringify(steps));
    await s.close();
  `);
  assert.equal(status, 0, out);
  assert.deepEqual(out.trim().split('\n'), [JSON.stringify(['login', 'consent', 'code=true'])], 'nothing else printed');
});

test('the runtime warning is left out on the Node 20 versions we support only, and by its exact text', async () => {
  assert.equal(quietRuntimeWarning('20.19.0'), true);
  assert.equal(quietRuntimeWarning('20.20.2'), true);
  assert.equal(quietRuntimeWarning('20.18.3'), false, 'below our engines: its warning is right');
  assert.equal(quietRuntimeWarning('18.20.0'), false);
  assert.equal(quietRuntimeWarning('22.12.0'), false, 'oidc-provider does not warn there: nothing to leave out');
  // console.warn is oidc-provider's only while it is imported: a warning afterwards is printed
  const { out } = await node(`
    await import('./test/fixtures/oidc-provider.mjs');
    console.warn('oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.');
    console.warn('a real warning');
  `);
  assert.match(out, /a real warning/);
  assert.match(out, /Unsupported runtime/);
});
