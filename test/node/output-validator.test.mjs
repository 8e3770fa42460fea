// The validator the SDK client checks structured output with (src/core/session/validator.ts): the
// hub hands the SDK each call's tool definition, and the SDK asks for the output validator on
// every call; a schema is compiled once (a 4 KB schema cost ~60 µs a call to compile).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { SchemaValidator } = await import(path.join(root, 'dist/core/session/validator.js'));

test('an output schema is compiled once and still judges every result', () => {
  const schema = { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] };
  const v = new SchemaValidator();
  const check = v.getValidator(schema);
  assert.equal(v.getValidator(schema), check, 'the same schema: the compiled validator again');
  assert.equal(new SchemaValidator().getValidator(schema), check, 'for every client of the page');
  assert.notEqual(v.getValidator({ ...schema }), check, 'another schema object: compiled for itself');
  assert.deepEqual(check({ temperature: 21 }), { valid: true, data: { temperature: 21 }, errorMessage: undefined });
  const wrong = check({ temperature: 'warm' });
  assert.equal(wrong.valid, false);
  assert.match(wrong.errorMessage, /temperature/);
  assert.throws(() => v.getValidator({ $schema: 'https://example.com/mine', type: 'object' }), /unsupported dialect/);
});
