import { css } from 'lit';
import { baseStyles, fieldHintStyles } from './mcp-element.js';

/** Styles of <mcp-schema-form>: fields, fieldsets, list items, choices, problems. */
export const schemaFormStyles = [
  baseStyles,
  fieldHintStyles,
  css`
    .field {
      display: grid;
      gap: 0.2rem;
      margin-bottom: 0.6rem;
    }
    fieldset {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      margin: 0 0 0.6rem;
      min-width: 0;
    }
    .item {
      display: flex;
      gap: 0.4rem;
      align-items: start;
    }
    .item > :first-child {
      flex: 1;
      min-width: 0;
    }
    .choices {
      display: flex;
      flex-wrap: wrap;
      gap: 0.2rem 1rem;
    }
    textarea {
      width: 100%;
      min-height: 4rem;
      font-family: var(--_mono);
    }
    .field-error,
    .json-error {
      color: var(--_danger);
      font-size: 0.85em;
      margin: 0;
    }
    [aria-invalid='true'] {
      border-color: var(--_danger);
    }
  `,
];
