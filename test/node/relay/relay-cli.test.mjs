// The relay CLI's command line (dist/relay/node/cli.js, the package's bin): `--help` answers with
// the options and exit 0 (it answered "Unknown option '--help'" and exit 1); a bad command line
// says what is wrong, prints the usage and exits 2, starting nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cliPath } from '../../fixtures/stdio-relay-fixture.mjs';

const cli = (...args) => spawnSync(process.execPath, [cliPath(), ...args], { encoding: 'utf8', timeout: 20000 });

test('relay CLI: --help, -h, help and relay --help print the options on stdout and exit 0', () => {
  for (const args of [['--help'], ['-h'], ['help'], ['relay', '--help'], ['relay', '-h']]) {
    const r = cli(...args);
    assert.equal(r.status, 0, `${args.join(' ')}: exit ${r.status}, stderr: ${r.stderr}`);
    assert.match(r.stdout, /usage: mcp-chat-elements relay --config <mcp\.json>/, args.join(' '));
    for (const option of ['--config', '--origin', '--port', '--verbose', '--help'])
      assert.ok(r.stdout.includes(option), `${args.join(' ')} names ${option}`);
    assert.equal(r.stderr, '');
  }
});

test('relay CLI: an unknown option, an unknown command, no command or no --config: what is wrong, the usage, exit 2', () => {
  for (const [args, why] of [
    [['relay', '--config', 'x.json', '--bogus'], /Unknown option '--bogus'/],
    [['serve'], /Unknown command 'serve'/],
    [[], /^usage:/],
    [['relay'], /--config <mcp\.json> is required/],
    [['relay', '--config'], /argument missing/],
  ]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ') || '(nothing)'}: exit ${r.status}`);
    assert.match(r.stderr, why);
    assert.match(r.stderr, /usage: mcp-chat-elements relay/);
    assert.equal(r.stdout, '', 'nothing started');
  }
});
