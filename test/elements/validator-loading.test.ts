// A "Try it" form made before the schema validator arrived (a chunk of its own: docs/decisions/053-validator-chunk.md,
// "The validator on first use") checks its value once it has. This file must not load the
// validator before its test (no connect, no explorer): each test file is a page of its own.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../src/internal/schema-form-define.js';
import { loadValidator, validateArguments, validatorLoaded, type Tool } from '../../src/index.js';
import type { McpSchemaForm } from '../../src/internal/schema-form.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tool = { name: 'weather', inputSchema: schema } as Tool;

describe('<mcp-schema-form> and the validator loaded on first use', () => {
  it('a form made before the validator arrived checks its value once it has', async () => {
    expect(validatorLoaded()).to.equal(false);
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
