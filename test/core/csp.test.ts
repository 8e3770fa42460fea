import { expect } from '@open-wc/testing';

describe('strict Content-Security-Policy (no unsafe-eval)', () => {
  it('the CDN bundle connects, lists tools, calls one and autoloads two elements with zero violations', async () => {
    const result = new Promise<any>((resolve) => {
      window.addEventListener('message', function on(e) {
        if (!e.data?.csp) return;
        window.removeEventListener('message', on);
        resolve(e.data);
      });
    });
    const frame = document.createElement('iframe');
    frame.src = '/__csp.html';
    document.body.append(frame);
    const r = await result;
    frame.remove();
    expect(r.error).to.equal(undefined);
    expect(r.tools.length).to.be.greaterThan(10);
    expect(r.tools.some((t: { outputSchema: boolean }) => t.outputSchema)).to.equal(true);
    expect(r.structured).to.equal(true);
    expect(r.rendered).to.deep.equal({ card: true, cardStyled: true, form: true });
    expect(r.violations).to.deep.equal([]);
  });

  it('the page really enforces the policy (eval is blocked there)', async () => {
    const res = await fetch('/__csp.html');
    expect(res.headers.get('content-security-policy')).to.contain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.to.contain('unsafe-eval');
  });
});
