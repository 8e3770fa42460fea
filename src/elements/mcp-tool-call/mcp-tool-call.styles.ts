import { css, unsafeCSS } from 'lit';
import { callLineStyles, resultStyles } from '../../internal/result-view.js';

export const styles = css`
  :host {
    --_card-bg: var(--mcp-tool-call-background, var(--_bg));
    --_card-border: var(--mcp-tool-call-border-color, var(--_border));
  }
  .card {
    border: 1px solid var(--_card-border);
    border-radius: var(--_radius);
    background: var(--_card-bg);
    padding: 0.6rem 0.8rem;
    display: grid;
    gap: 0.4rem;
  }
  :host(:state(awaiting-approval)) .card {
    border-color: var(--_warning);
  }
  :host(:state(error)) .card {
    border-color: var(--_danger);
  }
  header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: baseline;
  }
  .status {
    margin-left: auto;
    font-size: 0.85em;
    border-radius: 999px;
    padding: 0 0.5rem;
    border: 1px solid currentColor;
  }
  .status[data-status='success'] {
    color: var(--_success);
  }
  .status[data-status='error'],
  .status[data-status='interrupted'] {
    color: var(--_danger);
  }
  .status[data-status='awaiting-approval'],
  .status[data-status='needs-sign-in'] {
    color: var(--_warning);
  }
  .status[data-status='running'],
  .status[data-status='pending'] {
    color: var(--_accent);
  }
  .status[data-status='cancelled'],
  .status[data-status='denied'] {
    color: var(--_muted);
  }
  :host(:state(denied)) .error {
    color: var(--_muted);
  }
  .ask {
    font-weight: 600;
    margin: 0;
  }
  .what,
  .with {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .label {
    color: var(--_muted);
  }
  dl {
    display: grid;
    grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
    gap: 0.15rem 0.75rem;
    margin: 0.2rem 0 0;
  }
  dt {
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  dt .key {
    font-family: var(--mcp-font-mono, ui-monospace, monospace);
    color: inherit;
  }
  dd {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 8rem;
    overflow: auto;
  }
  dd .cut {
    display: block;
    color: var(--_muted);
    font-style: italic;
  }
  .warnings {
    margin: 0;
    padding-left: 1.2rem;
    color: var(--_fg);
  }
  .warnings li::marker {
    color: var(--_warning);
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
  }
  .approval,
  .sign-in {
    display: grid;
    gap: 0.4rem;
    outline: none;
  }
  header .cancel {
    font-size: 0.85em;
    padding: 0.1rem 0.6rem;
  }
  .progress {
    display: flex;
    flex-wrap: wrap;
    gap: 0.2rem 0.6rem;
    align-items: baseline;
  }
  progress {
    width: 100%;
  }
  .rerun {
    display: grid;
    gap: 0.4rem;
  }
  .rerun p {
    margin: 0;
  }
  .requests {
    display: grid;
    gap: 0.5rem;
  }
  .error {
    color: var(--_danger);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0;
  }
  details > summary {
    cursor: pointer;
    color: var(--_muted);
  }
  .task-status {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ${unsafeCSS(callLineStyles)}
  ${unsafeCSS(resultStyles)}
  .always-note {
    font-size: 0.85em;
    margin: 0.3rem 0 0;
  }
`;
