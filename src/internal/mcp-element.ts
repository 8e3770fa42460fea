import { LitElement, css, type PropertyValues } from 'lit';
import { getHub, type McpHub } from '../core/index.js';
import { neutraliseBidi } from './bidi.js';
import { HostSchemeController } from './host-scheme.js';

/** `auto` (default): the host page's scheme; `system`: the OS's; `light`/`dark`: fixed. */
export type Theme = 'auto' | 'system' | 'light' | 'dark';

// The dark palette: theme="dark", theme="system" in a dark OS, and theme="auto" (or none) on a
// dark page (the :state(host-dark) that internal/host-scheme.ts decides).
const darkTokens = css`
  --_bg: var(--mcp-color-surface, #0d1117);
  --_fg: var(--mcp-color-text, #e6edf3);
  --_muted: var(--mcp-color-muted, #9198a1);
  --_border: var(--mcp-color-border, #3d444d);
  --_accent: var(--mcp-color-accent, #4493f8);
  --_accent-fg: var(--mcp-color-on-accent, #0d1117);
  --_danger: var(--mcp-color-danger, #f85149);
  --_warning: var(--mcp-color-warning, #d29922);
  --_success: var(--mcp-color-success, #3fb950);
  --_subtle: var(--mcp-color-subtle, #151b23);
`;

/** Tokens every element resolves once, with fallbacks, so the CDN drop-in needs no theme file. */
/** A form field's required mark and help text, alike in every form the elements render. */
export const fieldHintStyles = css`
  .req {
    color: var(--_danger);
  }
  .help {
    color: var(--_muted);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
`;

export const baseStyles = css`
  :host {
    --_bg: var(--mcp-color-surface, #ffffff);
    --_fg: var(--mcp-color-text, #1f2328);
    --_muted: var(--mcp-color-muted, #59636e);
    --_border: var(--mcp-color-border, #d1d9e0);
    --_accent: var(--mcp-color-accent, #0969da);
    --_accent-fg: var(--mcp-color-on-accent, #ffffff);
    --_danger: var(--mcp-color-danger, #cf222e);
    --_warning: var(--mcp-color-warning, #9a6700);
    --_success: var(--mcp-color-success, #1a7f37);
    --_subtle: var(--mcp-color-subtle, #f6f8fa);
    --_radius: var(--mcp-radius, 8px);
    --_font: var(--mcp-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif);
    --_mono: var(--mcp-font-mono, ui-monospace, SFMono-Regular, Menlo, monospace);
    --_gap: var(--mcp-space, 0.5rem);
    display: block;
    /* the containing block of what is positioned inside (the visually-hidden status lines):
       without it they are placed against the page and can stretch it (issue 25 item 3) */
    position: relative;
    color: var(--_fg);
    font-family: var(--_font);
    font-size: var(--mcp-font-size, 0.9375rem);
    line-height: 1.45;
    box-sizing: border-box;
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='system']) {
      ${darkTokens}
    }
  }
  :host([theme='dark']) {
    ${darkTokens}
  }
  /* its own rule: an engine without :state() drops only this one */
  :host(:state(host-dark)) {
    ${darkTokens}
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button {
    font: inherit;
    border: 1px solid var(--_border);
    background: var(--_subtle);
    color: var(--_fg);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.3rem 0.75rem;
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
  }
  button.danger {
    color: var(--_danger);
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  summary:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  button:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.3rem 0.5rem;
    /* a long option or value never makes the element wider than its box (phones) */
    min-width: 0;
    max-width: 100%;
  }
  pre,
  code {
    font-family: var(--_mono);
    font-size: 0.85em;
  }
  pre {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: var(--_subtle);
    border-radius: calc(var(--_radius) - 2px);
    padding: 0.5rem;
    margin: 0;
    max-height: 24rem;
    overflow: auto;
  }
  .visually-hidden {
    position: absolute;
    top: 0;
    left: 0;
    width: 1px;
    height: 1px;
    /* above the top edge: an element showing nothing else (an empty <mcp-elicitation>) in a page's
       scrolling box would otherwise overflow it by 1 px, and the box became a Tab stop (issue 38) */
    margin: -1px 0 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .muted {
    color: var(--_muted);
  }
  .error-text,
  .error-summary {
    color: var(--_danger);
  }
  .error-details > summary {
    color: var(--_muted);
    font-size: 0.85em;
    cursor: pointer;
    width: fit-content;
  }
  .error-details > p {
    margin: 0.25rem 0 0;
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
`;

/**
 * Base of every mcp-elements element: the hub (the page's by default, or one set for tests),
 * replaceable strings, `emit()` for bubbling composed events, and the `theme` attribute.
 */
export class McpElement<S extends Record<string, unknown> = Record<string, string>> extends LitElement {
  static override properties = {
    hub: { attribute: false },
    strings: { attribute: false },
    theme: { reflect: true },
  };
  /** The hub this element shows. Defaults to the page's hub (`getHub()`). */
  declare hub: McpHub;
  /** Replacement user-visible strings (merged over the English defaults). */
  declare strings: Partial<S>;
  /**
   * `auto` (the default): match the page behind the element (its painted background, else its
   * `color-scheme`); `system`: follow `prefers-color-scheme`; `light` or `dark`: fixed.
   */
  declare theme?: Theme;
  protected defaultStrings = {} as S;
  #internals?: ElementInternals;

  constructor() {
    super();
    this.hub = getHub();
    this.strings = {};
    new HostSchemeController(this);
  }

  // One ElementInternals per element (a second attachInternals() throws): subclasses that want
  // it for their own states get the same object the theme's state lives in.
  override attachInternals(): ElementInternals {
    return (this.#internals ??= super.attachInternals());
  }

  // Server strings are shown without text direction controls (internal/bidi.ts)
  protected override update(changed: PropertyValues): void {
    super.update(changed);
    neutraliseBidi(this.renderRoot);
  }

  /** A user-visible string, the host's replacement if it gave one. */
  protected t<K extends keyof S>(key: K): S[K] {
    return (this.strings?.[key] ?? this.defaultStrings[key]) as S[K];
  }

  /** Dispatch an event from this element (events bubble and are composed). Returns false if vetoed. */
  protected emit(event: Event): boolean {
    return this.dispatchEvent(event);
  }
}

/** Define a custom element once, even when two copies of the bundle are on the page. */
export function define(tag: string, ctor: CustomElementConstructor) {
  if (typeof customElements === 'undefined') return;
  if (!customElements.get(tag)) customElements.define(tag, ctor);
}
