// The runner's judging rules (scripts/judge.mjs), which decide what `npm test` and `.ci/run`
// count as passed: each rule fed the case it exists for (issue 27 item 13).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  judgeEngines,
  judgePart,
  judgeScenario,
  passedAlone,
  raiseMinimums,
  scenarioVerdict,
} from '../../scripts/judge.mjs';

const check = (id, status, errorMessage) => ({ id, status, ...(errorMessage ? { errorMessage } : {}) });
const OK = 'conformance-client: ok\n';
const entry = (match) => ({ issue: 'issue 99', why: 'not yet', match });

test('a scenario whose checks were all skipped fails: no check ran', () => {
  const v = scenarioVerdict({ checks: [check('a', 'SKIPPED'), check('b', 'SKIPPED')], stdout: OK, code: 0 });
  assert.equal(v.ok, false);
  assert.match(v.why, /^no check ran: all 2 skipped \(a, b\)/);
  // one check that ran and passed is enough
  assert.equal(
    scenarioVerdict({ checks: [check('a', 'SKIPPED'), check('b', 'SUCCESS')], stdout: OK, code: 0 }).ok,
    true,
  );
});

test('a scenario fails on a FAILURE or WARNING check, or a client that did not finish, unless refusing was right', () => {
  const failed = scenarioVerdict({
    checks: [check('a', 'SUCCESS'), check('b', 'WARNING', 'no  iss')],
    stdout: OK,
    code: 1,
  });
  assert.deepEqual([failed.ok, failed.why], [false, '1 check(s) failed, first b: no iss']);
  const crashed = scenarioVerdict({ checks: [check('a', 'SUCCESS')], stdout: '', code: 1 });
  assert.equal(crashed.why, 'the client did not finish (crashed, or killed at the timeout)');
  const refused = 'conformance-client: refused the server\n';
  assert.equal(scenarioVerdict({ checks: [check('a', 'SUCCESS')], stdout: refused, code: 1 }).ok, false);
  // allowClientError: the CLI exits 0 when the client's refusal was right
  assert.equal(scenarioVerdict({ checks: [check('a', 'SUCCESS')], stdout: refused, code: 0 }).ok, true);
  // ... but not when the client says the hub refused the wrong way (e.g. http 410, not insufficient-scope)
  const wrong = scenarioVerdict({
    checks: [check('a', 'SUCCESS')],
    stdout: 'conformance-client: WRONG http 410, not insufficient-scope\n',
    code: 0,
  });
  assert.deepEqual(
    [wrong.ok, wrong.why],
    [false, 'every check passed but the client refused wrongly: http 410, not insufficient-scope'],
  );
});

test('an expected failure counts only when it fails for its recorded reason', () => {
  const failing = scenarioVerdict({ checks: [check('iss-check', 'FAILURE', 'iss missing')], stdout: OK, code: 1 });
  const listed = entry('iss-check: iss missing');
  assert.equal(judgeScenario('s', failing, listed).outcome, 'expected');
  const other = judgeScenario('s', failing, entry('pkce-check'));
  assert.equal(other.outcome, 'failed');
  assert.match(
    other.line,
    /to fail matching \/pkce-check\/, but failed otherwise: 1 check\(s\) failed, first iss-check/,
  );
  // unlisted: a failure
  assert.deepEqual(judgeScenario('s', failing, undefined), { outcome: 'failed', line: `s: ${failing.why}` });
  // listed and passing: stale (a failure), unless the list is being updated
  const ok = { ok: true, checksOk: true };
  assert.equal(judgeScenario('s', ok, listed).outcome, 'stale');
  assert.equal(judgeScenario('s', ok, listed, { update: true }).outcome, 'passed');
  assert.equal(judgeScenario('s', ok, undefined).outcome, 'passed');
});

test('failed in the parallel run, passed alone: a failure, listed or not, whatever its first reason', () => {
  const first = scenarioVerdict({ checks: [check('iss-check', 'FAILURE', 'iss missing')], stdout: OK, code: 1 });
  const flaky = passedAlone(first);
  assert.equal(flaky.ok, false);
  assert.match(flaky.why, /^flaky: failed beside others, passed alone: 1 check\(s\) failed/);
  assert.equal(judgeScenario('s', flaky, undefined).outcome, 'failed');
  // listed for the very reason it failed beside others: alone it passed, so the listing does not hold
  const listed = judgeScenario('s', flaky, entry('iss-check'));
  assert.equal(listed.outcome, 'failed');
  assert.match(listed.line, /but passed alone: flaky: /);
  // even a match written for the flaky text itself does not make it expected
  assert.equal(judgeScenario('s', flaky, entry('flaky')).outcome, 'failed');
});

test('a part that ran no test, or fewer than its minimum, fails; an unexplained skip fails', () => {
  assert.deepEqual(judgePart({ passed: 0, failed: 0 }, { full: false }).problems, ['ran no test']);
  const few = judgePart({ passed: 60, failed: 1 }, { full: true, minimum: 63 });
  assert.deepEqual(few, {
    ran: 61,
    problems: ['ran 61 tests, fewer than the 63 recorded in test/minimum-counts.json'],
  });
  assert.deepEqual(judgePart({ passed: 63, failed: 0 }, { full: true, minimum: 63 }).problems, []);
  // a run limited to some files (not full) is not held to the minimum
  assert.deepEqual(judgePart({ passed: 5, failed: 0 }, { full: false, minimum: 63 }).problems, []);
  const skips = judgePart(
    {
      passed: 3,
      failed: 0,
      skipped: ['theme (skipped in WebKit: no dark scheme)', 'plain title', 'x # SKIP needs Node 22'],
    },
    { full: false },
  );
  assert.deepEqual(skips.problems, ['1 skip(s) without a reason']);
});

test('UPDATE_MINIMUMS raises each minimum to the run count and never lowers one', () => {
  const before = { chromium: 675, node: 63, frameworks: 42 };
  assert.deepEqual(raiseMinimums(before, { chromium: 680, node: 60 }), { chromium: 680, node: 63, frameworks: 42 });
  assert.deepEqual(raiseMinimums(before, { cdn: 237 }), { ...before, cdn: 237 });
  assert.deepEqual(before, { chromium: 675, node: 63, frameworks: 42 }, 'the input is left alone');
});

test('a selected engine that is missing fails the run unless skipping it was asked for', () => {
  const known = ['chromium', 'firefox', 'webkit'];
  const engine = (name, missing = []) => ({ name, label: name.toUpperCase(), missing, pathVars: 'X_PATH' });
  const selected = [engine('chromium'), engine('webkit', ['webkit2gtk-driver'])];
  const missing = judgeEngines(selected, new Set(), known);
  assert.deepEqual(
    missing.runnable.map((e) => e.name),
    ['chromium'],
  );
  assert.equal(missing.failed, 1);
  assert.match(missing.notes[0], /^WEBKIT: FAILED, not installed \(apt-get install -y webkit2gtk-driver\)/);
  const asked = judgeEngines(selected, new Set(['webkit']), known);
  assert.equal(asked.failed, 0);
  assert.match(asked.notes[0], /^WEBKIT: SKIPPED because SKIP_ENGINES asks for it/);
  // skipping an installed engine on purpose is allowed too; a name that is no engine fails
  const typo = judgeEngines([engine('chromium')], new Set(['chromium', 'safari']), known);
  assert.deepEqual([typo.runnable.length, typo.failed], [0, 1]);
  assert.match(typo.notes[0], /SKIP_ENGINES names "safari", which is not an engine/);
});
