// The schema validator is a chunk of its own (docs/ARCHITECTURE.md, "The validator on first
// use"): before it is loaded the synchronous checks fail with a typed error instead of judging
// nothing, and a "Try it" form made before it arrived checks its value once it has. This file
// must not load the validator before its first test (no connect, no explorer).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../src/internal/schema-form-define.js';
import {
  argumentIssues,
  loadValidator,
  McpElementsError,
  validateArguments,
  validatorLoaded,
  type Tool,
} from '../../src/index.js';
import type { McpSchemaForm } from '../../src/internal/schema-form.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tool = { name: 'weather', inputSchema: schema } as Tool;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('the schema validator, loaded on first use', () => {
  it('refuses to judge before it is loaded, with a typed error that says what to do', () => {
    expect(validatorLoaded()).to.equal(false);
    for (const check of [() => validateArguments(tool, {}), () => argumentIssues(tool, {})]) {
      const e = thrown(check);
      expect(e).to.be.instanceOf(McpElementsError);
      expect((e as McpElementsError).code).to.equal('validator-not-loaded');
      expect((e as Error).message).to.contain('loadValidator()');
    }
    expect(validatorLoaded(), 'a refused check loads nothing').to.equal(false);
  });

  it('a form made before the validator arrived checks its value once it has', async () => {
    const form = await fixture<McpSchemaForm>(html`<mcp-schema-form .schema=${schema} .value=${{}}></mcp-schema-form>`);
    const loading = loadValidator();
    expect(loadValidator(), 'one load per page').to.equal(loading);
    await loading;
    expect(validatorLoaded()).to.equal(true);
    await form.updateComplete;
    // the missing city is a problem now, without the value changing
    expect(form.reportValidity()).to.equal(false);
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('.field-error')?.textContent).to.match(/\S/);
    expect(validateArguments(tool, {})).to.contain('city');
    expect(validateArguments(tool, { city: 'Oslo' })).to.equal(null);
  });
});
