// Errors read as one plain sentence first, the diagnosis behind "Details", never a server's HTML
// page (issue 25 item 4): unit rules of internal/error-text.ts, then the manager's server row
// against a port where nothing listens and a path where a real server answers with an HTML 404.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { errorText, withoutHtml } from '../../src/internal/error-text.js';
import { nextEvent, privateHub, untilRendered, urls } from '../helpers.js';

describe('error text: first sentence, details, no HTML', () => {
  it('splits after the first sentence; one sentence has no details', () => {
    expect(errorText({ message: 'The server answered HTTP 500. It said: boom.' })).to.deep.equal({
      summary: 'The server answered HTTP 500.',
      details: 'It said: boom.',
    });
    expect(errorText({ message: 'Denied.' })).to.deep.equal({ summary: 'Denied.' });
    // a URL's dots and a version number do not end a sentence
    expect(errorText({ message: 'Could not load http://a.example/v1.2/x.js now' }).details).to.equal(undefined);
  });

  it('a network failure names the host and asks the two questions; the diagnosis is the details', () => {
    const t = errorText(
      { code: 'network', message: 'Could not reach http://127.0.0.1:9. If the server is running, … CORS …' },
      { url: 'http://127.0.0.1:9/mcp' },
    );
    expect(t.summary).to.equal("Couldn't reach 127.0.0.1:9 — is the server running and the URL right?");
    expect(t.details).to.contain('CORS');
  });

  it('an HTML page in a message becomes its words, in quotes; markup never survives', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST /x</pre><img src=x onerror="alert(1)"><script>alert(2)</script></body></html>';
    const out = withoutHtml(`The server answered HTTP 404. ${page}`);
    expect(out).to.equal('The server answered HTTP 404. “Cannot POST /x”');
    expect(out).not.to.match(/[<>]/);
    // no HTML: unchanged
    expect(withoutHtml('a < b and c > d')).to.equal('a < b and c > d');
  });

  it('a very long first sentence is cut with an ellipsis and kept whole in the details', () => {
    const long = `${'word '.repeat(60)}end.`;
    const t = errorText({ message: long });
    expect(t.summary.length).to.be.at.most(160);
    expect(t.summary.endsWith('…')).to.equal(true);
    expect(t.details).to.equal(long);
  });
});

describe('<mcp-server-manager>: a server that fails shows one line, details on request', () => {
  async function failing(url: string) {
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'Down', url, retries: 0, timeout: 10 });
    const failed = nextEvent<CustomEvent>(hub, 'mcp-server-status-changed', (e) => e.detail.status === 'error');
    await hub.connect(s.id).catch(() => {});
    await failed;
    const el = await fixture<any>(
      html`<div style="width: 360px"><mcp-server-manager .hub=${hub}></mcp-server-manager></div>`,
    );
    const manager = el.firstElementChild;
    await untilRendered(manager, () => manager.shadowRoot.querySelector('.last-error'), 'the error');
    const row = manager.shadowRoot.querySelector('.last-error') as HTMLElement;
    return { hub, manager, row, error: hub.status(s.id).error! };
  }
  const oneLine = (el: HTMLElement) => {
    const lh = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.6;
    return el.getBoundingClientRect().height <= lh * 1.5;
  };

  it('nothing listening: "Couldn\'t reach 127.0.0.1:9 — …", one line; the core message under Details', async () => {
    const { manager, row, error } = await failing('http://127.0.0.1:9/mcp');
    const summary = row.querySelector('.error-summary') as HTMLElement;
    expect(summary.textContent).to.equal("Couldn't reach 127.0.0.1:9 — is the server running and the URL right?");
    expect(oneLine(summary), 'one line').to.equal(true);
    const details = row.querySelector('details.error-details') as HTMLDetailsElement;
    expect(details.open).to.equal(false);
    expect(details.querySelector('summary')!.textContent).to.equal('Details');
    expect(details.querySelector('p')!.textContent).to.equal(error.message);
    await expect(manager).to.be.accessible();
  });

  it('a wrong path on a real server (an HTML 404 page): its words, never its markup', async () => {
    const { row, error } = await failing(`${urls.fixture}/no/such/path`);
    expect(error.message, 'the core message holds whatever the server sent').to.match(/404/);
    const text = row.textContent!;
    expect(text).to.contain('404');
    expect(text).not.to.match(/<!DOCTYPE|<html|<pre|<body/i);
    expect(row.querySelectorAll('pre, html, body').length).to.equal(0);
    expect(oneLine(row.querySelector('.error-summary') as HTMLElement)).to.equal(true);
  });
});

describe('<mcp-server-manager>: no Sign in for a server that cannot be reached', () => {
  it('an OAuth server on a port where nothing listens: the error line, no Sign in button', async () => {
    const hub = privateHub();
    const s = await hub.servers.add({
      name: 'Gone',
      url: 'http://127.0.0.1:9/mcp',
      auth: { type: 'oauth' },
      retries: 0,
      timeout: 10,
    });
    const failed = nextEvent<CustomEvent>(hub, 'mcp-server-status-changed', (e) => e.detail.status === 'error');
    await hub.connect(s.id).catch(() => {});
    await failed;
    const el = await fixture<any>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    await untilRendered(el, () => el.shadowRoot.querySelector('.last-error'), 'the error');
    expect(hub.status(s.id).error?.code).to.equal('network');
    expect(el.shadowRoot.querySelector('[data-action=sign-in]')).to.equal(null);
  });
});
