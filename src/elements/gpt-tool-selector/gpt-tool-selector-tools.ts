// The tool rows of <gpt-tool-selector>: each tool with its description and its read-only /
// destructive label (hints from the server), the search over every server's tools, and what
// "Pin" means said once, as the pin buttons' description.
import { css, html, nothing } from 'lit';
import type { Tool } from '../../core/index.js';

/** Characters of a description shown in a row (the whole text is the row's tooltip). */
const DESCRIPTION_CHARS = 200;
/** Characters of a description searched (as the explorer does). */
const SEARCH_CHARS = 2000;

/** Whether a tool matches every term of a search (name, title, description; any case). */
export function matches(tool: Tool, terms: readonly string[]): boolean {
  if (!terms.length) return true;
  const hay =
    `${tool.name} ${tool.title ?? tool.annotations?.title ?? ''} ${(tool.description ?? '').slice(0, SEARCH_CHARS)}`.toLowerCase();
  return terms.every((t) => hay.includes(t));
}

/** The terms of a search box's text. */
export const searchTerms = (query: string): string[] => query.toLowerCase().split(/\s+/).filter(Boolean);

/** `read-only`, `destructive` or nothing: the server's hints, as the explorer labels them. */
export function safetyLabel(tool: Tool, t: (k: 'readOnly' | 'destructive') => string) {
  const a = tool.annotations ?? {};
  if (a.readOnlyHint === true)
    return html`<span class="label read-only" data-label="read-only">${t('readOnly')}</span>`;
  if (a.destructiveHint === true)
    return html`<span class="label destructive" data-label="destructive">${t('destructive')}</span>`;
  return nothing;
}

/** A tool's description, clipped for the row; `id` so its checkbox can point at it. */
export function toolDescription(tool: Tool, id: string) {
  const text = (tool.description ?? '').trim();
  if (!text) return nothing;
  const shown = text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 1)}…` : text;
  return html`<span class="desc" id=${id} title=${text}>${shown}</span>`;
}

export const toolRowStyles = css`
  .tool {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    gap: 0 0.5rem;
    align-items: baseline;
  }
  .tool .desc {
    grid-column: 2 / -1;
    font-size: 0.85em;
    color: var(--_muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .tool .end {
    display: flex;
    gap: 0.4rem;
    align-items: center;
    flex-wrap: wrap;
    justify-content: flex-end;
  }
  .label {
    font-size: 0.75em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0 0.45rem;
    white-space: nowrap;
  }
  .label.destructive {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  .label.read-only {
    color: var(--_success);
    border-color: var(--_success);
  }
  input[type='search'] {
    width: 100%;
    box-sizing: border-box;
  }
  .down-note {
    margin: 0.2rem 0 0;
    font-size: 0.85em;
    color: var(--_danger);
  }
`;
