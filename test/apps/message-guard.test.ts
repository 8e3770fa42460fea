// The host's guard (src/apps/message-guard.ts) on its own: a message from the view's frame with
// another origin than the view's, or carrying ports, is refused with its reason and reaches no
// listener after the guard; a plain one from the right origin passes (the control).
import { expect } from '@open-wc/testing';
import { guardMessages } from '../../src/apps/message-guard.js';

/**
 * An opaque-origin frame (its messages say origin "null") guarded as a view expecting `origin`,
 * that posts to this page what `script` builds. Resolves with what the guard refused and what
 * reached a listener after it, once either happened.
 */
async function guarded(origin: string, script: string) {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  const refusals: string[] = [];
  const passed: unknown[] = [];
  let settle!: () => void;
  const settled = new Promise<void>((r) => (settle = r));
  const unguard = guardMessages(
    () => frame.contentWindow,
    origin,
    (reason) => {
      refusals.push(reason);
      settle();
    },
  );
  const after = (e: MessageEvent) => {
    if (e.source !== frame.contentWindow) return;
    passed.push(e.data);
    settle();
  };
  window.addEventListener('message', after);
  frame.srcdoc = `<!doctype html><script>${script}</script>`;
  document.body.append(frame);
  try {
    await settled;
    return { refusals, passed };
  } finally {
    unguard();
    window.removeEventListener('message', after);
    frame.remove();
  }
}

describe('MCP Apps: the host’s message guard', () => {
  it('refuses a message from the view’s frame with another origin than the view’s, and says so', async () => {
    const { refusals, passed } = await guarded(
      'https://sandbox.example',
      `parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');`,
    );
    expect(refusals, 'the refusals').to.deep.equal(['a message from origin null (expected https://sandbox.example)']);
    expect(passed, 'what reached the transport').to.deep.equal([]);
  });

  it('refuses a message carrying ports, and says so', async () => {
    const { refusals, passed } = await guarded(
      'null',
      `const c = new MessageChannel(); parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*', [c.port1]);`,
    );
    expect(refusals, 'the refusals').to.deep.equal(['a message carrying ports']);
    expect(passed, 'what reached the transport').to.deep.equal([]);
  });

  it('passes a plain message from the view’s origin (the control)', async () => {
    const { refusals, passed } = await guarded(
      'null',
      `parent.postMessage({ jsonrpc: '2.0', method: 'ping', id: 1 }, '*');`,
    );
    expect(refusals).to.deep.equal([]);
    expect(passed).to.deep.equal([{ jsonrpc: '2.0', method: 'ping', id: 1 }]);
  });
});
