// "Connect" on a server that wants a signed-in user (issue 38): it used to do nothing visible (the
// status stayed "Sign-in needed"). Now Connect gives way to Sign in: focus goes to Sign in, the
// row says to press it, and a row already waiting for sign-in offers Sign in alone.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/mcp-server-manager/define.js';
import type { McpServerManagerElement } from '../../src/elements/mcp-server-manager/mcp-server-manager.js';
import { privateHub, unique, untilRendered, urls } from '../helpers.js';

const CALLBACK = `${location.origin}/__oauth-callback.html`;

describe('<mcp-server-manager>: Connect on a server that needs sign-in', function () {
  this.timeout(60000);

  it('moves focus to Sign in and says so; a row waiting for sign-in offers Sign in, not Connect', async () => {
    const hub = privateHub({ redirectUrl: CALLBACK });
    const url = `${urls.oauthMcp}/t/${unique('connect')}/auto/mcp`;
    const server = await hub.servers.add({ name: 'Protected', url, auth: { type: 'oauth', scopes: ['mcp:tools'] } });
    const el = await fixture<McpServerManagerElement>(html`<mcp-server-manager .hub=${hub}></mcp-server-manager>`);
    const row = () => el.shadowRoot!.querySelector(`[data-server="${server.id}"]`)!;
    const connect = row().querySelector('[data-action=connect]') as HTMLButtonElement;
    connect.focus();
    connect.click();
    await untilRendered(
      el,
      () => el.shadowRoot!.activeElement?.getAttribute('data-action') === 'sign-in',
      'focus on Sign in',
    );
    expect(hub.status(server.id).status).to.equal('needs-sign-in');
    const hint = row().querySelector('[part=sign-in]')!;
    expect(hint.getAttribute('role')).to.equal('status');
    expect(hint.textContent).to.contain('press Sign in');
    expect(row().querySelector('[data-action=connect]'), 'no Connect beside Sign in').to.equal(null);
    await expect(el).to.be.accessible();
  });
});
