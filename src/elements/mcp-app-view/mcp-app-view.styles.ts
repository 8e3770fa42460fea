import { css } from 'lit';

export const styles = css`
  :host {
    --_view-max: var(--mcp-app-view-max-height, 800px);
    margin-block: var(--_gap);
  }
  .frame {
    position: relative;
    border-radius: var(--_radius);
    overflow: hidden;
  }
  .frame[hidden] {
    display: none;
  }
  :host([data-border]) .frame {
    border: 1px solid var(--mcp-app-view-border-color, var(--_border));
    background: var(--_bg);
  }
  .frame iframe {
    display: block;
    border: 0;
    width: 100%;
    height: min(var(--_view-height, 320px), var(--_view-max));
    background: transparent;
    color-scheme: normal;
  }
  /* full screen: the element itself covers the page, its bars (approvals, questions) above the
     view, the rest of the page inert behind it (fullscreen.ts) */
  :host([display-mode='fullscreen']) {
    position: fixed;
    inset: 0;
    z-index: 2147483000;
    margin: 0;
    display: flex;
    flex-direction: column;
    background: var(--_bg);
  }
  :host([display-mode='fullscreen']) .bar,
  :host([display-mode='fullscreen']) .notice {
    margin: var(--_gap) var(--_gap) 0;
  }
  :host([display-mode='fullscreen']) .frame {
    flex: 1 1 auto;
    min-height: 0;
    border-radius: 0;
    background: var(--_bg);
  }
  :host([display-mode='fullscreen']) .frame iframe {
    position: absolute;
    inset: 0;
    height: 100%;
  }
  :host([display-mode='pip']) .frame {
    position: fixed;
    inset-block-end: 1rem;
    inset-inline-end: 1rem;
    width: min(360px, calc(100vw - 2rem));
    z-index: 2147483000;
    box-shadow: 0 4px 24px rgb(0 0 0 / 0.3);
    background: var(--_bg);
  }
  :host([display-mode='pip']) .frame iframe {
    height: min(var(--_view-height, 240px), 50vh);
  }
  .toolbar {
    display: flex;
    gap: var(--_gap);
    justify-content: flex-end;
    margin-top: calc(var(--_gap) / 2);
  }
  :host([display-mode='fullscreen']) .toolbar,
  :host([display-mode='pip']) .toolbar {
    position: fixed;
    z-index: 2147483001;
    inset-block-start: 0.5rem;
    inset-inline-end: 0.5rem;
  }
  /* with bars above a full-screen view, the way back takes a row of its own above them rather
     than covering the first bar's buttons */
  :host([display-mode='fullscreen']) .bar ~ .toolbar,
  :host([display-mode='fullscreen']) .notice ~ .toolbar {
    position: static;
    order: -1;
    margin: var(--_gap) var(--_gap) 0;
  }
  :host([display-mode='pip']) .toolbar {
    inset-block-start: auto;
    inset-block-end: calc(1rem + min(var(--_view-height, 240px), 50vh) + 0.25rem);
    inset-inline-end: 1rem;
  }
  .bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_gap);
    padding: var(--_gap);
    margin-bottom: var(--_gap);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_subtle);
    overflow-wrap: anywhere;
  }
  .notice {
    margin: 0 0 var(--_gap);
    color: var(--_muted);
  }
  .error {
    color: var(--_danger);
    margin: 0;
  }
  .refusals {
    margin: calc(var(--_gap) / 2) 0 0;
    padding-inline-start: 1.2em;
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
`;
