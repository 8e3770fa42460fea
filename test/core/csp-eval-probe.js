// Loaded by /__csp-eval.html (the strict policy of /__csp.html, no 'unsafe-eval'): tries each
// way of turning a string into code and reports what happened.
const tried = {};
for (const [name, run] of [
  ['eval', () => (0, eval)('1 + 1')],
  ['Function', () => new Function('return 1 + 1')()],
]) {
  try {
    tried[name] = `ran: ${run()}`;
  } catch (e) {
    tried[name] = e.name;
  }
}
parent.postMessage({ cspEval: true, tried }, '*');
