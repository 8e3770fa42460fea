#!/usr/bin/env node
/// <reference types="node" />
// `npx mcp-chat-elements relay --config mcp.json [--origin https://chat.example] [--port 8787]`:
// the stdio servers of an mcp.json served as Streamable HTTP on 127.0.0.1 for one page origin.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startStdioRelay } from './stdio.js';

const USAGE = 'usage: mcp-chat-elements relay --config <mcp.json> [--origin <page origin>] [--port <port>] [--verbose]';
const HELP = `mcp-chat-elements relay: the stdio servers of an mcp.json, served as Streamable HTTP on
127.0.0.1 for one page origin. It prints an mcp.json to paste into the page's server manager.

${USAGE}

  --config <file>    the mcp.json whose stdio servers to start (required)
  --origin <origin>  the page allowed to call the relay (CORS), e.g. https://chat.example.com
  --port <port>      the port on 127.0.0.1 (default: a free one)
  --verbose          show the servers' own stderr
  -h, --help         this help

(the command is also installed as mcp-elements)`;

const OPTIONS = {
  config: { type: 'string' },
  origin: { type: 'string' },
  port: { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Exit codes: 0 help asked for, 2 a bad command line (usage on stderr), -1 running. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return 0;
  }
  if (command !== 'relay') {
    console.error(command === undefined ? USAGE : `Unknown command '${command}'.\n${USAGE}`);
    return 2;
  }
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({ args: rest, options: OPTIONS }));
  } catch (e) {
    // an unknown option or a missing value: say which, then how to call it
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.config) {
    console.error(`--config <mcp.json> is required.\n${USAGE}`);
    return 2;
  }
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(values.config, 'utf8'));
  } catch (e) {
    console.error(`cannot read ${values.config}: ${(e as Error).message}`);
    return 2;
  }
  const relay = await startStdioRelay({
    config: config as Parameters<typeof startStdioRelay>[0]['config'],
    origin: values.origin,
    port: values.port ? Number(values.port) : undefined,
    stderr: values.verbose ? 'inherit' : 'ignore',
  });
  const stop = () => void relay.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`mcp-elements relay on ${relay.url} (CORS for ${values.origin ?? 'no page origin: pass --origin'})`);
  for (const s of relay.servers) console.log(`  ${s.name}: ${s.url}`);
  console.log('\nPaste this into the server manager (Import mcp.json); the token is valid until this process stops:\n');
  console.log(relay.pasteConfig());
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
