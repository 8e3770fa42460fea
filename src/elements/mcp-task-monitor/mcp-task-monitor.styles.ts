import { css, unsafeCSS } from 'lit';
import { baseStyles } from '../../internal/mcp-element.js';
import { callLineStyles, resultStyles } from '../../internal/result-view.js';

export const styles = [
  baseStyles,
  css`
    :host {
      --_task-bg: var(--mcp-task-monitor-background, var(--_bg));
    }
    section {
      background: var(--_task-bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: var(--_gap);
      display: grid;
      gap: var(--_gap);
    }
    h2,
    h3 {
      font-size: 1em;
      margin: 0;
    }
    h3 {
      color: var(--_muted);
      font-weight: 600;
      font-size: 0.85em;
      text-transform: uppercase;
      letter-spacing: 0.03em;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: var(--mcp-task-monitor-gap, 0.5rem);
    }
    li {
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) - 2px);
      padding: 0.5rem 0.75rem;
      display: grid;
      gap: 0.35rem;
    }
    .line {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.5rem;
    }
    .status {
      margin-left: auto;
      font-size: 0.8em;
      border-radius: 999px;
      padding: 0.05rem 0.5rem;
      border: 1px solid currentColor;
    }
    .status[data-status='working'],
    .status[data-status='input_required'] {
      color: var(--_accent);
    }
    .status[data-status='completed'] {
      color: var(--_success);
    }
    .status[data-status='failed'] {
      color: var(--_danger);
    }
    .status[data-status='cancelled'] {
      color: var(--_muted);
    }
    .message {
      margin: 0;
      overflow-wrap: anywhere;
    }
    progress {
      width: 100%;
      accent-color: var(--_accent);
    }
    .actions {
      display: flex;
      gap: 0.5rem;
      flex-wrap: wrap;
    }
    .error {
      color: var(--_danger);
      margin: 0;
      overflow-wrap: anywhere;
    }
    .empty {
      margin: 0;
    }
  `,
  unsafeCSS(callLineStyles),
  unsafeCSS(resultStyles),
];
