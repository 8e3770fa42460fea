// Bench (issue 24): what the backend hub's call history costs per call. createChatHandler()'s hub
// makes 1000 `runToolCalls` echo calls against server-everything (Streamable HTTP, 127.0.0.1)
// after 300 to warm up; every history write (`CallHistory.flush`: retention, the record writes)
// is timed in this process's CPU up to its first await. Prints writes per 1000 calls, CPU per
// write and per call, and the whole call's CPU for scale.
// Run: npm run build && node bench/backend-history.mjs   (DIST=<a copy of another build> to
// measure that one; copy it inside the repo, e.g. node_modules/.cache/, so it resolves packages)
import path from 'node:path';
import { startEverything } from '../test/fixtures/servers.mjs';
import { built } from '../test/fixtures/relay-fixture.mjs';
import { echoBackend } from './backend-echo.mjs';

const dist = process.env.DIST ? path.resolve(process.env.DIST) : path.dirname(built('dist/index.js'));
const { CallHistory } = await import(path.join(dist, 'core/calls/history.js'));
const { createChatHandler } = await import(path.join(dist, 'server/index.js'));
let writes = 0;
let writeCpu = 0;
const flush = CallHistory.prototype.flush;
CallHistory.prototype.flush = function () {
  const before = process.cpuUsage();
  const result = flush.call(this);
  const used = process.cpuUsage(before);
  writeCpu += used.user + used.system;
  writes++;
  return result;
};
const everything = await startEverything('streamableHttp');
const { hub, call } = await echoBackend(createChatHandler, everything.url);
try {
  for (let i = 0; i < 300; i++) await call();
  writes = 0;
  writeCpu = 0;
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < 1000; i++) await call();
  const used = process.cpuUsage(before);
  console.log(
    `history writes: ${writes} per 1000 calls, ${(writeCpu / writes).toFixed(0)} µs CPU each, ${(writeCpu / 1000).toFixed(1)} µs CPU per call; ` +
      `the call: ${((used.user + used.system) / 1000).toFixed(0)} µs CPU, ${(performance.now() - started).toFixed(0)} µs wall per call ` +
      `(${Object.keys(hub.store.state.calls).length} calls kept, limit 50)`,
  );
} finally {
  await hub.dispose();
  await everything.close();
}
process.exit(0);
