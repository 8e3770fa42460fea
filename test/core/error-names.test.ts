// Error classes keep their names in the minified CDN build (hosts test `err.name`), and in the
// source build. The CDN file is the one `npm run build` wrote (npm test builds first).
import { expect } from '@open-wc/testing';
import * as source from '../../src/core/index.js';

const NAMES = [
  'McpElementsError',
  'McpConfigError',
  'McpNotFoundError',
  'McpConnectionError',
  'McpStorageError',
  'McpVaultError',
  'McpToolError',
  'McpSkillError',
] as const;

function instances(mod: Record<string, any>): Record<string, Error> {
  return {
    McpElementsError: new mod.McpElementsError('x', 'm'),
    McpConfigError: new mod.McpConfigError([{ path: 'url', message: 'bad' }]),
    McpNotFoundError: new mod.McpNotFoundError('server', 'id1'),
    McpConnectionError: new mod.McpConnectionError('network', 'm'),
    McpStorageError: new mod.McpStorageError('m'),
    McpVaultError: new mod.McpVaultError('m'),
    McpToolError: new mod.McpToolError('tool-error', 'm'),
    McpSkillError: new mod.McpSkillError('digest', 'skill://a/SKILL.md', 'm'),
  };
}

describe('error class names', () => {
  it('the source classes are named as exported', () => {
    const made = instances(source);
    for (const n of NAMES) expect(made[n].name, n).to.equal(n);
  });

  it('the minified CDN build keeps every error class name', async () => {
    const path = '/dist/cdn/mcp-elements.js';
    const cdn = (await import(/* @vite-ignore */ path)) as Record<string, any>;
    const made = instances(cdn);
    for (const n of NAMES) {
      expect(cdn[n], `${n} is exported`).to.be.a('function');
      expect(made[n].name, n).to.equal(n);
      expect(String(made[n])).to.match(new RegExp(`^${n}: `));
    }
  });
});

describe('refusals of a server request', () => {
  it('surface from a call as the server error code the answer refused with (2026-07-28 answers run inside the call)', async () => {
    const { toConnectionError } = await import('../../src/core/session/errors.js');
    const { AnswerRefusal, INVALID_PARAMS } = await import('../../src/core/answers/refusal.js');
    const err = toConnectionError(new AnswerRefusal(INVALID_PARAMS, 'Elicitation URL refused: must use https:'), []);
    expect(err).to.be.instanceOf(source.McpConnectionError);
    expect(err.code).to.equal('server');
    expect(err.rpcCode).to.equal(-32602);
    expect(err.message).to.contain('Elicitation URL refused');
  });
});
