// The import boundary is enforced, not just written down: ESLint refuses an element (or an
// element test) that reaches into the core's internals instead of its public entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function restricted(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('an element importing a core internal fails lint', async () => {
  const found = await restricted(
    'src/elements/mcp-tool-call/example.ts',
    "import { Vault } from '../../core/vault.js';\nexport const v = Vault;\n",
  );
  assert.equal(found.length, 1);
  assert.match(found[0], /public entry/);
});

test('an element test importing a core internal fails lint, type-only imports too', async () => {
  const found = await restricted(
    'test/elements/example.test.ts',
    "import type { HubContext } from '../../src/core/context.js';\nexport type C = HubContext;\n",
  );
  assert.equal(found.length, 1);
});

test('the public entry passes', async () => {
  const found = await restricted(
    'src/elements/mcp-tool-call/example.ts',
    "import { getHub } from '../../core/index.js';\nexport const h = getHub;\n",
  );
  assert.deepEqual(found, []);
});
