// How `npm test` judges what ran: pure functions, no files read, nothing started, so that
// test/node/judge.test.mjs can hold each rule to account. scripts/test.mjs (parts, engines,
// minimum counts) and scripts/conformance.mjs (scenarios, expected failures) call them.

/** A skip must say why in its title (test/helpers.ts skipBecause / skipIn, or TAP `# SKIP reason`). */
const EXPLAINED_SKIP = /\(skipped .+\)|# SKIP \S/;

/**
 * One part's problems (each one counts as a failed test): it ran no test; it ran in `full` with
 * fewer tests than its recorded `minimum`; a test was skipped without saying why.
 * `counts` is `{ passed, failed, skipped?: string[] }` (the skipped tests' titles).
 */
export function judgePart(counts, { full, minimum, minimumsFile = 'test/minimum-counts.json' }) {
  const ran = counts.passed + counts.failed;
  const problems = [];
  if (ran === 0) problems.push('ran no test');
  if (full && typeof minimum === 'number' && ran < minimum)
    problems.push(`ran ${ran} tests, fewer than the ${minimum} recorded in ${minimumsFile}`);
  const unexplained = (counts.skipped ?? []).filter((t) => !EXPLAINED_SKIP.test(t));
  if (unexplained.length) problems.push(`${unexplained.length} skip(s) without a reason`);
  return { ran, problems };
}

/** UPDATE_MINIMUMS: each part's minimum rises to this run's count, never falls. */
export function raiseMinimums(minimums, seen) {
  const next = { ...minimums };
  for (const [part, n] of Object.entries(seen))
    next[part] = typeof minimums[part] === 'number' ? Math.max(minimums[part], n) : n;
  return next;
}

/**
 * The selected engines (`{ name, label, missing, pathVars }`) split into those that run and those
 * that do not. One that is not installed, or named in SKIP_ENGINES (`skipAsked`), does not run;
 * it FAILS the run unless skipping it was asked for. A SKIP_ENGINES name that is no engine fails.
 */
export function judgeEngines(selected, skipAsked, knownNames) {
  const runnable = selected.filter((e) => e.missing.length === 0 && !skipAsked.has(e.name));
  const notes = [];
  let failed = 0;
  for (const n of [...skipAsked].filter((x) => !knownNames.includes(x))) {
    failed++;
    notes.push(`FAILED: SKIP_ENGINES names "${n}", which is not an engine (${knownNames.join(', ')})`);
  }
  for (const e of selected.filter((x) => !runnable.includes(x))) {
    const install = e.missing.length ? `not installed (apt-get install -y ${e.missing.join(' ')})` : 'installed';
    if (skipAsked.has(e.name)) notes.push(`${e.label}: SKIPPED because SKIP_ENGINES asks for it (${install})`);
    else {
      failed++;
      notes.push(
        `${e.label}: FAILED, ${install}; install it, point ${e.pathVars} at it, or skip it with SKIP_ENGINES=${e.name}`,
      );
    }
  }
  return { runnable, notes, failed };
}

/**
 * One conformance scenario's outcome from what the CLI wrote: `checks` (checks.json), the
 * client's `stdout` and the CLI's exit `code`. It passes when at least one check ran (SUCCESS),
 * none is FAILURE or WARNING (as the CLI judges), and the client said `conformance-client: ok`,
 * or, when the client failed, the CLI accepted that: scenarios where refusing is right
 * (`allowClientError`) exit 0. A scenario whose checks were all skipped fails: nothing in it was
 * shown to work.
 */
export function scenarioVerdict({ checks, stdout = '', code }) {
  const said = [...stdout.matchAll(/^conformance-client: (.*)$/gm)].at(-1)?.[1];
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const oneLine = (s) => String(s ?? '').replace(/\s+/g, ' ');
  const checksOk = bad.length === 0;
  let why;
  if (!checksOk)
    why = `${bad.length} check(s) failed, first ${bad[0].id}: ${oneLine(bad[0].errorMessage || bad[0].description)}`;
  // the client's own check of how the hub refused (e.g. auth/scope-retry-limit's typed error)
  else if (said?.startsWith('WRONG ')) why = `every check passed but the client refused wrongly: ${said.slice(6)}`;
  else if (said !== 'ok' && code !== 0)
    why = said
      ? `every check passed but the client ${said}`
      : 'the client did not finish (crashed, or killed at the timeout)';
  if (!checksOk && said && said !== 'ok') why += ` | client: ${said}`;
  if (!why && !checks.some((c) => c.status === 'SUCCESS'))
    why = `no check ran: all ${checks.length} skipped (${[...new Set(checks.map((c) => c.id))].slice(0, 3).join(', ')}); the hub never used the feature`;
  return { ok: !why, checksOk, why: why?.slice(0, 400) };
}

/**
 * A scenario that failed beside others and passed when run again alone. It stays failed (its
 * result in the parallel run stands), and it no longer fails for any recorded reason: alone it
 * did not fail at all.
 */
export function passedAlone(first) {
  return { ...first, flaky: true, why: `flaky: failed beside others, passed alone: ${first.why}` };
}

/**
 * A scenario's result judged against its expected-failure entry (`{ issue, why, match }` or
 * undefined): `passed`, `expected` (failed for its recorded reason: counted neither passed nor
 * failed), `stale` (listed, passes now: a failure unless the list is being updated) or `failed`,
 * with the line saying why. An expected failure counts only when the failure reproduces:
 * a result that passed alone (`flaky`) is a failure even when listed and even when its first
 * reason matches, since alone it passes and the listing no longer holds.
 */
export function judgeScenario(name, result, entry, { update = false, expectedFile = 'expected-failures.json' } = {}) {
  if (result.ok)
    return entry && !update
      ? {
          outcome: 'stale',
          line: `${name}: listed in ${expectedFile} (issue "${entry.issue}") but passes now: remove it (node scripts/conformance.mjs --update-expected does)`,
        }
      : { outcome: 'passed' };
  if (!entry) return { outcome: 'failed', line: `${name}: ${result.why}` };
  if (result.flaky)
    return {
      outcome: 'failed',
      line: `${name}: listed in ${expectedFile} to fail matching /${entry.match}/, but passed alone: ${result.why}`,
    };
  if (new RegExp(entry.match).test(result.why)) return { outcome: 'expected' };
  return {
    outcome: 'failed',
    line: `${name}: listed in ${expectedFile} to fail matching /${entry.match}/, but failed otherwise: ${result.why}`,
  };
}
