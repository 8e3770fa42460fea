// Preloaded (`node -r`) into the relay's process by bench/relay-tail.mjs: records, with
// wall-clock timestamps, this process's GC pauses, each POST's time inside the relay (request in
// → response finished) and each stdio server round trip (a request written to its stdin → the
// first bytes of an answer on its stdout), and writes them to $RELAY_TAIL_OUT at exit.
const fs = require('node:fs');
const http = require('node:http');
const cp = require('node:child_process');

const at = (t) => performance.timeOrigin + t;
const record = { gc: [], served: [], stdio: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) record.gc.push([at(e.startTime), e.duration]);
}).observe({ entryTypes: ['gc'] });

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && req.method === 'POST') {
    const t = performance.now();
    res.once('finish', () => record.served.push([at(t), performance.now() - t]));
  }
  return emit.apply(this, arguments);
};

// the SDK's stdio transport spawns through cross-spawn, which calls child_process.spawn
const spawn = cp.spawn;
cp.spawn = function () {
  const child = spawn.apply(this, arguments);
  let sent = 0;
  const write = child.stdin.write;
  child.stdin.write = function (chunk) {
    if (String(chunk).includes('"id"')) sent = performance.now();
    return write.apply(this, arguments);
  };
  child.stdout.on('data', () => {
    if (!sent) return;
    record.stdio.push([at(sent), performance.now() - sent]);
    sent = 0;
  });
  return child;
};

process.on('exit', () => fs.writeFileSync(process.env.RELAY_TAIL_OUT, JSON.stringify(record)));
