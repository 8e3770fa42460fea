// Markdown from servers, rendered by a well-kept parser (marked) and made safe by a well-kept
// sanitiser (DOMPurify): a chunk of its own, loaded the first time a result holds markdown
// (src/internal/markdown.ts). Raw HTML inside the markdown is shown as text; links only to
// http(s) and mailto, opened in a new tab; images only from `data:` of raster types (a remote
// image would be a request the user never saw), others become their alt text; no `style`
// attributes (strict CSP) and nothing that runs.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const marked = new Marked({ gfm: true, async: false });
marked.use({ renderer: { html: ({ text }) => escapeHtml(text) } });

const LINK = /^(https?:|mailto:)/i;
const IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+={0,2}$/;

// our own instance: hooks on the page's DOMPurify (if it has one) are not ours to add
const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!LINK.test(href.trim())) node.removeAttribute('href');
    else {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  } else if (node.nodeName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!IMAGE.test(src)) node.replaceWith(node.ownerDocument.createTextNode(node.getAttribute('alt') ?? ''));
  }
});

const CONFIG = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
  ],
  ALLOWED_ATTR: ['href', 'src', 'alt', 'title', 'align', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

// cards re-render on every change of their call: parse each text once
const cache = new Map<string, string>();
const CACHE_SIZE = 64;

/** Markdown as sanitised HTML (a string for lit's `unsafeHTML`). */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = purify.sanitize(marked.parse(text) as string, CONFIG);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, html);
  return html;
}
