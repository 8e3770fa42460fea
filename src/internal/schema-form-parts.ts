// Small stateless pieces of the schema form: labels, legends, help text, and how string formats
// map to browser inputs.
import { html, nothing } from 'lit';
import type { Schema } from './schema-model.js';

export const FORMAT_INPUT: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date' };
// formats whose browser controls would send something else than the format wants
// (datetime-local has no seconds or zone): typed as text, with an example
export const FORMAT_EXAMPLE: Record<string, string> = {
  'date-time': '2025-01-31T12:00:00Z',
  time: '12:00:00Z',
  date: '2025-01-31',
  email: 'name@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
};

/** The visible star of a required field; `spoken` adds "(required)" for screen readers. */
export function requiredMark(required: boolean, spoken = true) {
  if (!required) return nothing;
  return spoken
    ? html` <span class="req" aria-hidden="true">*</span><span class="visually-hidden">(required)</span>`
    : html` <span class="req" aria-hidden="true">*</span>`;
}

export function label(name: string, s: Schema, required: boolean, id: string) {
  return html`<label for=${id}>${(s.title as string) ?? name}${requiredMark(required)}</label>`;
}

export function legend(name: string, s: Schema, required: boolean) {
  return html`<legend>${(s.title as string) ?? name}${requiredMark(required)}</legend>`;
}

/** The field's description and constraints in one line (the field's `aria-describedby` target). */
export function help(s: Schema, id: string) {
  const hints: string[] = [];
  if (typeof s.description === 'string') hints.push(s.description);
  if (typeof s.format === 'string') hints.push(`Format: ${s.format}`);
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number')
    hints.push(`Range: ${s.minimum ?? '…'} to ${s.maximum ?? '…'}`);
  if (typeof s.minLength === 'number' || typeof s.maxLength === 'number')
    hints.push(`Length: ${s.minLength ?? 0} to ${s.maxLength ?? '…'}`);
  return hints.length ? html`<span class="help" id=${`${id}-help`}>${hints.join(' · ')}</span>` : nothing;
}
