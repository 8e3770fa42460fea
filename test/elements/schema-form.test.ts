// The schema form (issue 14 item 3): every control shows exactly the value that will be sent, a
// problem shows only after the field was touched or Run was pressed, and every schema of the
// real-world corpus can be filled in as a user would, giving arguments that validate.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../src/internal/schema-form-define.js'; // the explorer loads it lazily; this test uses it alone
import { Validator } from '@cfworker/json-schema';
import { loadValidator } from '../../src/index.js';
import type { McpSchemaForm } from '../../src/internal/schema-form.js';
import { CORPUS } from '../fixtures/schemas.js';
import { privateHub, urls } from '../helpers.js';
import { REQUIRED_MESSAGE } from '../../src/internal/required.js';

type Schema = Record<string, any>;
// the validator is a chunk of its own; this test checks values with it directly
before(() => loadValidator());
const form = (schema: Schema, value: unknown = {}) =>
  fixture<McpSchemaForm>(html`<mcp-schema-form .schema=${schema} .value=${value}></mcp-schema-form>`);
const root = (el: McpSchemaForm) => el.shadowRoot!;
const control = <T extends HTMLElement>(el: McpSchemaForm, id: string) => root(el).querySelector(`#sf-${id}`) as T;
const errors = (el: McpSchemaForm) => [...root(el).querySelectorAll('.field-error')].map((e) => e.textContent);
/**
 * The judge of the corpus: the JSON Schema library itself, called directly, not the hub's
 * `argumentIssues` / `validateArguments` (the form is built on those, so they cannot judge it).
 * Returns the errors as text, or null when the value is valid.
 */
function valid(schema: Schema, value: unknown): string | null {
  const r = new Validator(schema as never, '2020-12', false).validate(value);
  return r.valid ? null : r.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join('; ');
}

// Values a user would type for the patterns in the corpus (a person reads the pattern and types).
const PATTERN_SAMPLES: Record<string, string> = { '^[0-9]{5}$': '12345', '^[CDG][A-Z0-9]{8,}$': 'C01234ABCD' };
const TEXT_FOR_TYPE: Record<string, string> = {
  email: 'ada@example.com',
  url: 'https://example.com/page',
  date: '2025-01-31',
};

/** What a user types into a control the form flags, reading its error and help text. */
function typeInto(input: HTMLInputElement | HTMLTextAreaElement, problem: string, attempt: number) {
  if (input instanceof HTMLTextAreaElement) return ['{}', '[]', '"text"', '1'][attempt % 4];
  if (input.type === 'number') {
    const at = (re: RegExp) => Number(re.exec(problem)?.[1]);
    if (/or more/.test(problem)) return String(at(/be (-?[\d.]+) or more/));
    if (/more than/.test(problem)) return String(at(/more than (-?[\d.]+)/) + 1);
    if (/or less/.test(problem)) return String(at(/be (-?[\d.]+) or less/));
    if (/less than/.test(problem)) return String(at(/less than (-?[\d.]+)/) - 1);
    return '1';
  }
  const pattern = /pattern (.+)\.$/.exec(problem)?.[1];
  if (pattern) {
    if (!(pattern in PATTERN_SAMPLES)) throw new Error(`no sample for pattern ${pattern}`);
    return PATTERN_SAMPLES[pattern];
  }
  if (TEXT_FOR_TYPE[input.type]) return TEXT_FOR_TYPE[input.type];
  if (input.placeholder) return input.placeholder; // the example the form shows for a format
  if (/UUID/.test(problem)) return '123e4567-e89b-12d3-a456-426614174000';
  const least = Number(/At least (\d+)/.exec(problem)?.[1] ?? 0);
  return 'some text'.padEnd(least, 'x');
}

/**
 * Fill the form as a user does: press Run, fix what is flagged (type, choose, tick, add), repeat.
 * A thorough user first adds one item to every list and picks something in every choice, so the
 * nested fields of lists of objects and the optional choices are exercised too.
 * Returns the number of rounds it took.
 */
async function fillLikeAUser(el: McpSchemaForm, thorough = false): Promise<number> {
  const attempts = new Map<string, number>();
  if (thorough) {
    const added = new Set<string>();
    for (let pass = 0; pass < 6; pass++) {
      await el.updateComplete;
      const adds = [...root(el).querySelectorAll<HTMLButtonElement>('[data-add]')].filter(
        (b) => !added.has(b.dataset.add!),
      );
      const choices = [...root(el).querySelectorAll<HTMLSelectElement>('select')].filter((s) => s.value === '-1');
      if (!adds.length && !choices.length) break;
      for (const b of adds) {
        added.add(b.dataset.add!);
        b.click();
      }
      for (const s of choices) {
        s.value = [...s.options].find((o) => o.value !== '-1')!.value;
        s.dispatchEvent(new Event('change'));
      }
    }
  }
  for (let round = 1; round <= 12; round++) {
    await el.updateComplete;
    if (el.reportValidity()) return round;
    await el.updateComplete;
    const flagged = [...root(el).querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
    // problems of a whole list: add an item, or tick a choice
    const lists = [...root(el).querySelectorAll('fieldset')].filter((f) =>
      [...f.children].some((c) => c.classList.contains('field-error')),
    );
    if (!flagged.length && !lists.length)
      throw new Error(`invalid, but nothing is flagged: ${JSON.stringify(el.value)}`);
    for (const c of flagged) {
      const problem = root(el).querySelector(`#${c.id}-error`)?.textContent ?? '';
      const n = attempts.get(c.id) ?? 0;
      attempts.set(c.id, n + 1);
      if (c instanceof HTMLSelectElement) {
        c.value = [...c.options].find((o) => o.value !== '-1')!.value;
        c.dispatchEvent(new Event('change'));
      } else if (c instanceof HTMLInputElement || c instanceof HTMLTextAreaElement) {
        c.value = typeInto(c, problem, n);
        c.dispatchEvent(new Event('input'));
        c.dispatchEvent(new FocusEvent('focusout'));
      }
      await el.updateComplete;
    }
    for (const f of lists) {
      const box = f.querySelector<HTMLInputElement>(':scope > .choices input[type=checkbox]');
      if (box) {
        box.checked = true;
        box.dispatchEvent(new Event('change'));
      } else f.querySelector<HTMLButtonElement>(':scope > [data-add]')?.click();
      await el.updateComplete;
    }
  }
  throw new Error(`still invalid after 12 rounds: ${JSON.stringify(el.value)}`);
}

describe('<mcp-schema-form>: what is shown is what is sent', () => {
  it('a required enum without a default starts empty ("Choose…"), sends nothing, and asks to choose', async () => {
    const schema = CORPUS.find((c) => c.name === 'get_annotated_message')!.schema;
    const el = await form(schema, { includeImage: false });
    const select = control<HTMLSelectElement>(el, 'messageType');
    expect(select.selectedOptions[0].textContent!.trim()).to.equal('Choose…');
    expect(el.value).to.deep.equal({ includeImage: false });
    // nothing is flagged before the user did anything
    expect(errors(el)).to.deep.equal([]);
    expect(select.getAttribute('aria-invalid')).to.equal('false');
    await expect(el).to.be.accessible();
    // Run: now it says what is missing, in words
    expect(el.reportValidity()).to.equal(false);
    await el.updateComplete;
    expect(errors(el)).to.deep.equal([REQUIRED_MESSAGE]);
    expect(root(el).activeElement).to.equal(select);
    await expect(el).to.be.accessible();
    select.value = '1';
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(el.value).to.deep.equal({ includeImage: false, messageType: 'success' });
    expect(errors(el)).to.deep.equal([]);
    expect(el.reportValidity()).to.equal(true);
  });

  it('defaults are shown and sent; an optional choice or yes/no can stay "not sent"', async () => {
    const schema = CORPUS.find((c) => c.name === 'create_event')!.schema;
    const el = await form(schema, { visibility: 'default' });
    expect(control<HTMLSelectElement>(el, 'visibility').selectedOptions[0].textContent!.trim()).to.equal('default');
    const b = await form(CORPUS.find((c) => c.name === 'post_message')!.schema);
    const unfurl = control<HTMLSelectElement>(b, 'unfurl_links');
    expect([...unfurl.options].map((o) => o.textContent!.trim())).to.deep.equal([
      '— (not sent)',
      'Yes (true)',
      'No (false)',
    ]);
    unfurl.value = '1';
    unfurl.dispatchEvent(new Event('change'));
    expect(b.value).to.deep.equal({ unfurl_links: false });
  });

  it('titled enums show their titles and send their constants', async () => {
    const schema = CORPUS.find((c) => c.name === 'titled_enums')!.schema;
    const el = await form(schema, { size: 2 });
    const priority = control<HTMLSelectElement>(el, 'priority');
    expect([...priority.options].map((o) => o.textContent!.trim())).to.deep.equal([
      'Choose…',
      'Urgent',
      'High',
      'Normal',
    ]);
    expect(control<HTMLSelectElement>(el, 'size').selectedOptions[0].textContent!.trim()).to.equal('Medium');
    priority.value = '0';
    priority.dispatchEvent(new Event('change'));
    expect(el.value).to.deep.equal({ size: 2, priority: 'p0' });
  });

  it('a problem shows after the field is touched, not before; then in plain words', async () => {
    const schema = CORPUS.find((c) => c.name === 'fetch')!.schema;
    const el = await form(schema, { max_length: 5000, start_index: 0, raw: false });
    const url = control<HTMLInputElement>(el, 'url');
    url.value = 'not a url';
    url.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(errors(el)).to.deep.equal([]); // still typing
    url.dispatchEvent(new FocusEvent('focusout'));
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['Enter a full address, such as https://example.com.']);
    expect(url.getAttribute('aria-invalid')).to.equal('true');
    const max = control<HTMLInputElement>(el, 'max_length');
    max.value = '0';
    max.dispatchEvent(new Event('input'));
    max.dispatchEvent(new FocusEvent('focusout'));
    await el.updateComplete;
    expect(errors(el)).to.deep.equal(['Enter a full address, such as https://example.com.', 'Must be more than 0.']);
  });

  it('nullable fields show the value, not a kind; a date-time is typed as it is sent', async () => {
    const schema = CORPUS.find((c) => c.name === 'search_documents')!.schema;
    const el = await form(schema, {});
    expect(root(el).textContent).to.not.contain('Kind');
    const cursor = control<HTMLInputElement>(el, 'cursor');
    expect(cursor.value).to.equal('');
    // required and nullable: an empty box is null, and null is valid
    cursor.value = 'x';
    cursor.dispatchEvent(new Event('input'));
    cursor.value = '';
    cursor.dispatchEvent(new Event('input'));
    expect((el.value as any).cursor).to.equal(null);
    const ev = await form(CORPUS.find((c) => c.name === 'create_event')!.schema, {});
    const start = control<HTMLInputElement>(ev, 'start-dateTime');
    expect(start.type).to.equal('text');
    expect(start.placeholder).to.equal('2025-01-31T12:00:00Z');
  });

  // issue 38: "Required.", "Choose one.", "Fill in this field." and "must not be empty" were one rule
  it('a required field left empty says so in one wording, whatever its kind', async () => {
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string' },
        nonEmpty: { type: 'string', minLength: 1 },
        count: { type: 'integer' },
        kind: { type: 'string', enum: ['a', 'b'] },
      },
      required: ['text', 'nonEmpty', 'count', 'kind'],
    };
    const el = await form(schema, { nonEmpty: '' });
    expect(el.reportValidity()).to.equal(false);
    await el.updateComplete;
    expect(errors(el)).to.deep.equal([REQUIRED_MESSAGE, REQUIRED_MESSAGE, REQUIRED_MESSAGE, REQUIRED_MESSAGE]);
    expect(REQUIRED_MESSAGE).to.equal('This field is required.');
  });

  it('problems inside the other branch of a oneOf are not shown', async () => {
    const schema = CORPUS.find((c) => c.name === 'refs_nullable_unions')!.schema;
    const el = await form(schema, { home: { street: 'Main' }, shape: { kind: 'circle' } });
    expect(el.reportValidity()).to.equal(false);
    await el.updateComplete;
    // Circle is shown: its missing radius, not "must be square" or the square's side
    expect(errors(el)).to.deep.equal([REQUIRED_MESSAGE]);
    expect(root(el).querySelector('#sf-shape-r-error')).to.exist;
  });
});

describe('schema corpus: every schema filled as a user would gives arguments that validate', () => {
  const filled: string[] = [];
  after(() =>
    console.log(
      `schema corpus: ${filled.length} schemas, each filled twice (minimal and thorough), all valid: ${filled.join(', ')}`,
    ),
  );

  for (const { source, name, schema } of CORPUS) {
    it(`${name} (${source})`, async () => {
      const { initialValue } = await import('../../src/internal/schema-form.js');
      for (const thorough of [false, true]) {
        const el = await form(schema, initialValue(schema));
        await fillLikeAUser(el, thorough);
        expect(valid(schema, el.value), `${thorough ? 'thorough' : 'minimal'}: ${JSON.stringify(el.value)}`).to.equal(
          null,
        );
      }
      filled.push(name);
    });
  }

  it('every tool of server-everything (live catalogue)', async () => {
    const { initialValue } = await import('../../src/internal/schema-form.js');
    const hub = privateHub();
    const s = await hub.servers.add({ name: 'E', url: urls.everything });
    const cat = await hub.connect(s.id);
    expect(cat.tools.length).to.be.greaterThan(10);
    for (const t of cat.tools) {
      const schema = t.inputSchema as Schema;
      for (const thorough of [false, true]) {
        const el = await form(schema, initialValue(schema) ?? {});
        await fillLikeAUser(el, thorough);
        expect(valid(schema, el.value), `${t.name}: ${JSON.stringify(el.value)}`).to.equal(null);
      }
      filled.push(`everything/${t.name}`);
    }
  });
});
