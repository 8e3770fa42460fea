// The ext-apps sources say headless Chromium drops MessagePorts transferred across origins (so
// their Playwright suite runs headed). Measured here, in every engine this suite runs (headless
// Chromium and Firefox, WebKitGTK under Xvfb): a port transferred to a cross-origin frame arrives
// and answers. (Our views do not depend on it: the official PostMessageTransport uses
// window.postMessage, and the guard refuses any message from a view that carries ports.)
import { expect } from '@open-wc/testing';
import { urls } from './helpers.js';

describe('MCP Apps: MessagePort across origins', () => {
  it('a port transferred to a cross-origin frame arrives and answers', async () => {
    const frame = document.createElement('iframe');
    const src = `${urls.appsFixture}/port-echo.html`;
    expect(new URL(src).origin).not.to.equal(location.origin);
    const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
    frame.src = src;
    document.body.append(frame);
    await loaded;
    const channel = new MessageChannel();
    const answer = new Promise<unknown>((r) => (channel.port1.onmessage = (e) => r(e.data)));
    frame.contentWindow!.postMessage('ping', new URL(src).origin, [channel.port2]);
    expect(await answer).to.deep.equal({ echo: 'ping', origin: new URL(src).origin });
    frame.remove();
  });
});
