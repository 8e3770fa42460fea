// The sandbox proxy page itself (src/apps/sandbox/proxy.ts), driven by the test as a host would:
// which frame domains a view keeps (never the sandbox's own origin, nor another server's sandbox,
// however the name is written), and the page's refusal of a `?host=` the browser does not confirm.
import { expect } from '@open-wc/testing';
import { allowedFrameDomains, sandboxCeiling, SAME_ORIGIN_VIEW_SANDBOX } from '../../src/apps/csp.js';
import { sandboxPage } from '../../src/apps/sandbox-origin.js';
import { until } from '../helpers.js';
import { hostSandbox, urls } from './helpers.js';

// The view: what policy it and its proxy run under, then a frame of its own origin (a page there
// has only the ceiling policy, and a same-origin view could script it): does a document load?
const FRAMING_VIEW = `<!doctype html><script>
const policies = (d) => [...d.querySelectorAll('meta[http-equiv]')].map((m) => m.content);
parent.postMessage({ probe: 'policy', view: policies(document), proxy: policies(parent.document) }, '*');
const f = document.createElement('iframe');
const said = (framed) => parent.postMessage({ probe: 'framed', framed }, '*');
f.onload = () => { let href; try { href = f.contentWindow.location.href; } catch { href = 'another origin'; } said('loaded ' + href); };
setTimeout(() => said('nothing loaded in 2 s'), 2000);
f.src = location.origin + '/no-such-page';
document.body.append(f);
</script>`;

/** The sandbox page at `page`, hosted by this test, showing a view with `params`; what it relays. */
async function hostProxy(page: string, params: Record<string, unknown>) {
  const { seen, remove } = await hostSandbox(page, params);
  return {
    probe: (name: string) => until(async () => seen.find((d) => d?.probe === name), `the view's ${name}`),
    remove,
  };
}

describe('MCP Apps: the sandbox page’s ceiling policy', () => {
  it('lets views reach loopback only where the sandbox itself is served from loopback', () => {
    for (const production of ['sandbox.example', 'x.sandbox.example', 'localhost.example', 'a.127.0.0.1.example'])
      expect(sandboxCeiling(production), production).not.to.match(/127\.0\.0\.1|localhost|http:/);
    for (const dev of ['127.0.0.1', 'localhost', 'x.localhost', 'LOCALHOST.', '[::1]'])
      expect(sandboxCeiling(dev), dev).to.contain('connect-src https: wss: http://127.0.0.1:* http://localhost:*');
    expect(sandboxCeiling('sandbox.example')).to.contain(
      "connect-src https: wss:; frame-src https:; object-src 'none'",
    );
  });
});

describe('MCP Apps: the frame domains a view keeps', () => {
  it('drops every spelling of the sandbox’s own origin and, per server, every name under its parent', () => {
    const declared = [
      'https://X.Sandbox.Example',
      'https://x.sandbox.example:443',
      'HTTPS://x.sandbox.example',
      'wss://x.sandbox.example:8443',
      'https://y.sandbox.example',
      'https://sandbox.example',
      'https://*.sandbox.example',
      'https://*.example',
      'https://ok.example',
      'https://sandbox.example.ok.example',
    ];
    expect(allowedFrameDomains(declared, 'x.sandbox.example', true)).to.deep.equal([
      'https://ok.example',
      'https://sandbox.example.ok.example',
    ]);
    // one sandbox origin for every server: its own name only
    expect(allowedFrameDomains(declared, 'x.sandbox.example', false)).to.deep.equal([
      'https://y.sandbox.example',
      'https://sandbox.example',
      'https://ok.example',
      'https://sandbox.example.ok.example',
    ]);
    // a trailing dot or anything not an origin never gets that far
    expect(
      allowedFrameDomains(['https://x.sandbox.example.', 'https://x.sandbox.example/p'], 'other', false),
    ).to.deep.equal([]);
  });

  it('a sandbox template must have {server} as the whole first label (the rest is every server’s parent)', async () => {
    for (const bad of [
      'https://x{server}.sandbox.example/',
      'https://a.{server}.example/',
      'https://{server}.{server}.example/',
    ]) {
      const e = await sandboxPage(bad, { id: 's1', url: 'https://mcp.example/' }).then(
        (page) => ({ accepted: page.url.href }) as never,
        (x: Error) => x,
      );
      expect(e, `the template ${bad}`).to.deep.include({ name: 'McpAppError', code: 'bad-sandbox' });
      expect(e.message, bad).to.match(/as its whole first label/);
    }
    const ok = await sandboxPage('https://{server}.sandbox.example/index.html', { id: 's1' });
    expect(ok.url.hostname).to.match(/^[0-9a-f]{32}\.sandbox\.example$/);
  });

  it('a view of a sandbox origin per server that declares its own origin (upper case), another server’s and its parent gets frame-src of none of them, and no frame of its own origin loads', async () => {
    const page = urls.appsSandboxPerServer.replace('{server}', 'x');
    const { port } = new URL(page);
    const proxy = await hostProxy(page, {
      html: FRAMING_VIEW,
      sandbox: SAME_ORIGIN_VIEW_SANDBOX,
      csp: {
        frameDomains: [
          `http://X.LOCALHOST:${port}`,
          `HTTP://x.Localhost:${port}`,
          `http://y.localhost:${port}`,
          `http://*.localhost:${port}`,
          `http://localhost:${port}`,
          'https://ok.example',
        ],
      },
    });
    try {
      const policy = (await proxy.probe('policy')) as { view: string[]; proxy: string[] };
      // the proxy's own <meta> (it comes first) and the view's document: the same, filtered list
      const frameSrc = (p: string) => /frame-src ([^;]*)/.exec(p)?.[1];
      expect(policy.proxy.map(frameSrc)[0], 'the proxy page').to.equal('https://ok.example');
      // and under both, the ceiling the proxy set before anything else (a loopback sandbox here)
      expect(policy.proxy).to.include(sandboxCeiling(new URL(page).hostname));
      expect(policy.view.map(frameSrc), 'the view document').to.deep.equal(['https://ok.example']);
      // no document of its own origin came up in it (over http the ceiling's `frame-src https:`
      // stops it as well: this is the last line, the frame-src above the one under test)
      const framed = (await proxy.probe('framed')) as { framed: string };
      expect(framed.framed, 'a frame of its own origin').not.to.match(/^loaded http/);
    } finally {
      proxy.remove();
    }
  });
});

/** The sandbox page as this test's own server serves it (same origin: its refusal can be read). */
async function sameOriginPage(host: string | undefined, referrerPolicy: string) {
  const frame = document.createElement('iframe');
  frame.setAttribute('referrerpolicy', referrerPolicy);
  const q = host === undefined ? '' : `?host=${encodeURIComponent(host)}`;
  const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
  frame.src = `${location.origin}/dist/sandbox/index.html${q}`;
  document.body.append(frame);
  await loaded;
  // the module script ran before `load`; what it wrote into the page
  const text = frame.contentDocument!.body.textContent!.trim();
  frame.remove();
  return text;
}

describe('MCP Apps: the sandbox page and its ?host=', () => {
  const ancestors = 'ancestorOrigins' in location;

  it('refuses a host that is not the embedding page, as the browser tells it (referrer)', async () => {
    expect(await sameOriginPage('http://127.0.0.1:9', 'origin')).to.equal(
      'MCP App sandbox: the embedding page is not the given host.',
    );
  });

  it(`refuses it with no referrer to go by too (ancestorOrigins)${ancestors ? '' : ' (not here: no ancestorOrigins; only the referrer tells)'}`, async () => {
    const text = await sameOriginPage('http://127.0.0.1:9', 'no-referrer');
    if (ancestors) expect(text).to.equal('MCP App sandbox: the embedding page is not the given host.');
  });

  it('refuses no host, a host that is not an origin, and its own origin as the host', async () => {
    expect(await sameOriginPage(undefined, 'origin')).to.equal('MCP App sandbox: no host origin given (?host=).');
    expect(await sameOriginPage(`${location.origin}/path`, 'origin')).to.equal(
      'MCP App sandbox: the host must be given as an origin.',
    );
    expect(await sameOriginPage(location.origin, 'origin')).to.equal(
      'MCP App sandbox: the host and the sandbox must have different origins.',
    );
  });
});
