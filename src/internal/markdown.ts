// Which server text is markdown, and a directive that shows it rendered once the renderer chunk
// (marked + DOMPurify, src/internal/markdown-render.ts) has loaded; until then, and if it cannot
// load, the text is shown as it is.
import { noChange, type TemplateResult } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { importOnce } from './import-once.js';

type Render = (text: string) => string;
let render: Render | undefined;
const load = importOnce('the markdown renderer', () =>
  import('./markdown-render.js').then((m) => (render = m.renderMarkdown)),
);

// block constructs only: a lone `[x](y)` or `*x*` in one line of prose is left as text
const HEADING = /^#{1,6}\s+\S/m;
const FENCE = /^\s*(```|~~~)/m;
const TABLE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/m;
const QUOTE = /^>\s?\S/m;
const ITEM = /^\s*([-*+]|\d{1,3}[.)])\s+\S/gm;

/** Whether a text block reads as markdown: several lines with a heading, fence, table, quote or list. */
export function looksLikeMarkdown(text: string): boolean {
  if (!text.includes('\n')) return false;
  if (HEADING.test(text) || FENCE.test(text) || TABLE.test(text) || QUOTE.test(text)) return true;
  return (text.match(ITEM)?.length ?? 0) >= 2;
}

class MarkdownDirective extends AsyncDirective {
  #text?: string;
  render(text: string, fallback: TemplateResult) {
    if (render) return unsafeHTML(render(text));
    if (this.#text === text) return noChange;
    this.#text = text;
    void load().then(() => {
      if (render && this.#text === text && this.isConnected) this.setValue(unsafeHTML(render(text)));
    });
    return fallback;
  }
}

/** `markdown(text, fallback)`: the text rendered as safe HTML, `fallback` until the renderer is there. */
export const markdown = directive(MarkdownDirective);
