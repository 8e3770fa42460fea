// The MCP Apps sandbox page as the demo (`npm start`) and the test fixture serve it: every response
// carries `Content-Security-Policy: frame-ancestors <the host page's origin>`, so no other site can
// frame a server's sandbox origin and hand its proxy HTML to run there (issue 33).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../fixtures/apps-server.mjs';
import { freePort } from '../fixtures/servers.mjs';
import { startDemo } from '../../scripts/demo-server.mjs';

const policyOf = async (url) => (await fetch(url)).headers.get('content-security-policy');

test('the sandbox fixture is framed by the host pages it is given only, none when given none', async () => {
  const given = await startSandbox({ hostOrigins: ['http://127.0.0.2:8765'] });
  const none = await startSandbox();
  try {
    assert.equal(await policyOf(given.url), 'frame-ancestors http://127.0.0.2:8765');
    assert.equal(await policyOf(none.url), "frame-ancestors 'none'");
    // errors too
    assert.equal(
      await policyOf(given.url.replace('index.html', 'no-such-file')),
      'frame-ancestors http://127.0.0.2:8765',
    );
  } finally {
    await Promise.all([given.close(), none.close()]);
  }
});

test("npm start's sandbox page may be framed by the demo page's origin only", async () => {
  const demo = await startDemo({
    port: await freePort(),
    everythingPort: await freePort(),
    strictPort: true,
    quiet: true,
  });
  try {
    assert.equal(await policyOf(demo.sandboxUrl), `frame-ancestors ${new URL(demo.url).origin}`);
  } finally {
    await demo.close();
  }
});
