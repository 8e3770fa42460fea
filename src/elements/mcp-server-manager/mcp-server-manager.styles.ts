import { css } from 'lit';

export const styles = css`
  :host {
    --_dot-size: var(--mcp-server-manager-dot-size, 0.6rem);
  }
  h2,
  h3 {
    font-size: 1em;
    margin: 0 0 0.4rem;
  }
  ul.servers {
    list-style: none;
    margin: 0 0 1rem;
    padding: 0;
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.4rem;
  }
  .server {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.25rem;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  /* the server's facts wrap on the left; the Enabled switch keeps its own column on the right */
  .head {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0.5rem;
    align-items: start;
  }
  .head > .row {
    min-width: 0;
  }
  label.enable {
    white-space: nowrap;
  }
  /* a link that does what a button does (Download) looks like the buttons beside it */
  a.button {
    display: inline-block;
    font: inherit;
    border: 1px solid var(--_border);
    background: var(--_subtle);
    color: var(--_fg);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.3rem 0.75rem;
    text-decoration: none;
  }
  a.button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  p.sign-in {
    margin: 0.2rem 0;
    font-size: 0.9em;
  }
  .registry-update {
    border-left: 3px solid var(--_warning);
    padding-left: 0.4rem;
    margin: 0.2rem 0;
    font-size: 0.9em;
  }
  .about {
    font-size: 0.9em;
  }
  .url {
    color: var(--_muted);
    font-family: var(--_mono);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  .relay {
    color: var(--_muted);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  .dot {
    width: var(--_dot-size);
    height: var(--_dot-size);
    border-radius: 50%;
    background: var(--_muted);
    display: inline-block;
  }
  .dot[data-status='connected'] {
    background: var(--_success);
  }
  .dot[data-status='connecting'],
  .dot[data-status='needs-sign-in'] {
    background: var(--_warning);
  }
  .dot[data-status='error'] {
    background: var(--_danger);
  }
  /* the row says what went wrong in one line; the rest is under Details */
  .last-error .error-summary {
    display: block;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .spacer {
    flex: 1;
  }
  form {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.6rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.75rem;
    margin-bottom: 1rem;
  }
  .field {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.2rem;
  }
  .field label {
    font-weight: 500;
  }
  .field-error {
    color: var(--_danger);
    margin: 0;
    font-size: 0.9em;
  }
  .field-warning {
    border-left: 3px solid var(--_warning);
    padding-left: 0.4rem;
    margin: 0;
    font-size: 0.9em;
  }
  .field-warning:empty {
    display: none;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  .notice {
    background: var(--_subtle);
    border-left: 3px solid var(--_warning);
    padding: 0.4rem 0.6rem;
    margin: 0;
  }
  .headers {
    display: grid;
    gap: 0.3rem;
  }
  .test-result {
    border: 1px dashed var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem;
  }
  .test-result ul {
    margin: 0.2rem 0 0;
    padding-left: 1.2rem;
    max-height: 10rem;
    overflow: auto;
  }
  .confirm {
    background: var(--_subtle);
    padding: 0.4rem;
    border-radius: var(--_radius);
  }
  textarea {
    /* its border and padding inside its width: no overflow past the card */
    box-sizing: border-box;
    width: 100%;
    min-height: 6rem;
    font-family: var(--_mono);
    font-size: 0.85em;
  }
  details.advanced > summary {
    cursor: pointer;
    width: fit-content;
  }
  .advanced-fields {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.6rem;
    margin-top: 0.6rem;
  }
  details.io {
    margin-top: 0.5rem;
  }
`;
