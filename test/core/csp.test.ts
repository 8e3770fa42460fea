import { expect } from '@open-wc/testing';

describe('strict Content-Security-Policy (no unsafe-eval)', () => {
  it("the CDN bundle connects, lists tools, calls one, autoloads elements (a tool call card, the explorer's Try-it form and its thousands of tools, a server's form in <mcp-elicitation>) with zero violations", async () => {
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
    // <mcp-tool-explorer> with thousands of tools, no inline styles allowed: rows apart, scrolls
    expect(r.list.tools).to.be.greaterThan(1000);
    expect(r.list.rowsDistinct, `rows do not overlap: ${JSON.stringify(r.list.before)}`).to.equal(true);
    expect(r.list.scrolledTo, 'the list scrolled').to.be.greaterThan(10);
    expect(r.formShown, 'the elicitation form rendered').to.equal(true);
    expect(r.styled, 'the element styles applied (adopted style sheets)').to.equal(true);
    expect(r.rows, 'the explorer lists the tools').to.be.greaterThan(10);
    expect(r.rendered).to.deep.equal({ card: true, cardStyled: true, form: true });
    expect(r.violations).to.deep.equal([]);
  });

  it('the page really enforces the policy (eval is blocked there)', async () => {
    const res = await fetch('/__csp.html');
    expect(res.headers.get('content-security-policy')).to.contain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.to.contain('unsafe-eval');
    // the test page itself has no policy: there the probe's code runs
    expect((0, eval)('1 + 1')).to.equal(2);
    // under the same policy, eval and new Function throw EvalError
    const result = new Promise<any>((resolve) => {
      window.addEventListener('message', function on(e) {
        if (!e.data?.cspEval) return;
        window.removeEventListener('message', on);
        resolve(e.data);
      });
    });
    const frame = document.createElement('iframe');
    frame.src = '/__csp-eval.html';
    document.body.append(frame);
    const r = await result;
    frame.remove();
    expect(r.tried).to.deep.equal({ eval: 'EvalError', Function: 'EvalError' });
  });
});
