// `npm test`: builds, starts every test peer on 127.0.0.1, runs the browser suite in every
// installed engine (Chromium, Firefox ESR, WebKitGTK: scripts/engines.mjs), the Node suite
// (built core + fake-indexeddb) and the protocol conformance scenarios, then prints the counts
// per engine and `N passed, N failed` as its last line.
// `npm test -- browser` runs every engine; `-- chromium`, `-- firefox`, `-- webkit` one each
// (WTR_ENGINES=chromium,webkit does the same for a full run). `-- cdn` runs the element tests
// against the built CDN files (dist/cdn, elements autoloaded); so does `-- chromium` and a full run.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAll, freePort } from '../test/fixtures/servers.mjs';
import { engines, engineVersion, startWebKitDriver } from './engines.mjs';
import { runConformance } from './conformance.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2); // e.g. `npm test -- browser` or `-- node conformance`
const want = (part) => only.length === 0 || only.includes(part);
const chosen = process.env.WTR_ENGINES?.split(',').filter(Boolean);
const wantEngine = (name) =>
  (chosen ? chosen.includes(name) : true) && (only.length === 0 || only.includes('browser') || only.includes(name));
const totals = { passed: 0, failed: 0 };
const notes = [];

function run(cmd, args, env = {}, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      // browsers and drivers come from Debian only: nothing may download its own
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', ...env },
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    });
    let out = '';
    if (capture) {
      child.stdout.on('data', (d) => {
        out += d;
        process.stdout.write(d);
      });
      child.stderr.on('data', (d) => {
        out += d;
        process.stderr.write(d);
      });
    }
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

// Engines to run, and those skipped because they are not installed (said, not hidden).
const selected = engines().filter((e) => wantEngine(e.name));
const runnable = selected.filter((e) => e.missing.length === 0);
for (const e of selected.filter((x) => x.missing.length))
  notes.push(`${e.label}: SKIPPED, not installed (apt-get install -y ${e.missing.join(' ')})`);
if (selected.length && !runnable.some((e) => e.name === 'chromium') && selected.some((e) => e.name === 'chromium')) {
  console.error('Chromium not found. Install it (Debian: apt-get install -y chromium) or set CHROME_PATH.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

if (!process.env.SKIP_BUILD) {
  const b = await run('npm', ['run', '--silent', 'build']);
  if (b.code !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

/** The browser suite in one engine; its counts go to the totals and a line of the summary. */
async function runEngine(e, env, label = e.label) {
  const started = Date.now();
  const counts = path.join(mkdtempSync(path.join(tmpdir(), 'wtr-')), 'counts.json');
  const extra = { WTR_ENGINE: e.name };
  let driver;
  if (e.name === 'webkit') {
    // `xvfb-run -a` can race another process for the same display number: try up to 3 times
    let lastError;
    for (let attempt = 0; attempt < 3 && !driver; attempt++) {
      const port = await freePort();
      try {
        driver = await startWebKitDriver(port);
        extra.WTR_WEBDRIVER_PORT = String(port);
      } catch (err) {
        lastError = err;
      }
    }
    if (!driver) {
      console.error(String(lastError?.message ?? lastError));
      totals.failed++;
      notes.push(`${label}: FAILED to start WebKitWebDriver`);
      return;
    }
  }
  let r;
  try {
    r = await run('npx', ['--no-install', 'web-test-runner', '--config', 'web-test-runner.config.mjs'], {
      ...env,
      ...extra,
      WTR_COUNTS_FILE: counts,
      WTR_PORT: String(process.env.WTR_PORT ?? (await freePort())),
    });
  } finally {
    await driver?.close();
  }
  const c = existsSync(counts) ? JSON.parse(readFileSync(counts, 'utf8')) : { passed: 0, failed: 1, skipped: [] };
  if (r.code !== 0 && c.failed === 0) c.failed = 1;
  totals.passed += c.passed;
  totals.failed += c.failed;
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  notes.push(
    `${label} (${engineVersion(e.name)}): ${c.passed} passed, ${c.failed} failed, ${c.skipped.length} skipped in ${secs} s`,
    ...c.skipped.map((t) => `  skipped in ${label}: ${t}`),
  );
}

const servers = await startAll();
const env = { MCP_TEST_SERVERS: JSON.stringify(servers.urls) };
try {
  for (const e of runnable) await runEngine(e, env);
  // the element tests once more against the built CDN files (entry + autoloaded chunks)
  const chromium = engines().find((e) => e.name === 'chromium' && e.missing.length === 0);
  if (chromium && (only.length === 0 || only.includes('cdn') || (only.includes('chromium') && !process.env.WTR_FILES)))
    await runEngine(chromium, { ...env, WTR_BUILD: 'cdn' }, 'Chromium, CDN build');
  if (want('node')) {
    const r = await run(process.execPath, ['--test', '--test-reporter=tap', 'test/node/'], env, true);
    const pass = Number(/^# pass (\d+)/m.exec(r.out)?.[1] ?? 0);
    const fail = Number(/^# fail (\d+)/m.exec(r.out)?.[1] ?? (r.code ? 1 : 0));
    totals.passed += pass;
    totals.failed += fail || (r.code ? 1 : 0);
    notes.push(`node: ${pass} passed, ${fail} failed`);
  }
  if (want('e2e')) {
    const r = await run(
      process.execPath,
      ['--test', '--test-reporter=tap', '--test-concurrency=1', 'test/e2e/'],
      env,
      true,
    );
    const pass = Number(/^# pass (\d+)/m.exec(r.out)?.[1] ?? 0);
    const fail = Number(/^# fail (\d+)/m.exec(r.out)?.[1] ?? (r.code ? 1 : 0));
    totals.passed += pass;
    totals.failed += fail || (r.code ? 1 : 0);
    notes.push(`e2e: ${pass} passed, ${fail} failed (screenshots in test-results/e2e)`);
  }
  if (want('conformance')) {
    // every client scenario of the conformance suite, judged against its expected failures
    const c = await runConformance();
    totals.passed += c.passed;
    totals.failed += c.failed;
    notes.push(...c.lines);
  }
} finally {
  await servers.close();
}
console.log(notes.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
