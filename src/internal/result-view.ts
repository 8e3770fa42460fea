import { html, nothing, type TemplateResult } from 'lit';
import type { CallToolResult } from '../core/index.js';
import { looksLikeMarkdown, markdown } from './markdown.js';

// Only raster image types: an SVG could carry script (inert in <img>, but not worth the risk).
const IMAGE = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;
const AUDIO = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm|aac|flac|mp4)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A link only for http(s) URLs; anything else (javascript:, data:, file:) is shown as text. */
export function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function dataUrl(mime: string, data: string, allowed: RegExp): string | undefined {
  return allowed.test(mime) && data.length > 0 && BASE64.test(data) ? `data:${mime};base64,${data}` : undefined;
}

/** Structured JSON as a readable, collapsible tree (text only). */
export function renderTree(value: unknown, depth = 0): TemplateResult {
  if (value === null || typeof value !== 'object') {
    return html`<span class="tree-leaf tree-${value === null ? 'null' : typeof value}">${JSON.stringify(value)}</span>`;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return html`<span class="tree-leaf">${Array.isArray(value) ? '[]' : '{}'}</span>`;
  return html`<ul class="tree" role=${depth === 0 ? 'tree' : 'group'}>
    ${entries.map(([k, v]) =>
      v !== null && typeof v === 'object'
        ? html`<li role="treeitem" aria-expanded="true">
            <details open>
              <summary><span class="tree-key">${k}</span></summary>
              ${renderTree(v, depth + 1)}
            </details>
          </li>`
        : html`<li role="treeitem"><span class="tree-key">${k}</span>: ${renderTree(v, depth + 1)}</li>`,
    )}
  </ul>`;
}

export interface ResultStrings {
  image: string;
  audio: string;
  resourceLink: string;
  embeddedResource: string;
  binary: string;
  structured: string;
  noContent: string;
  copy: string;
  copied: string;
  enlarge: string;
  closeImage: string;
}

/** The renderer's English strings, spread into the strings of each element that shows results. */
export const RESULT_STRINGS: ResultStrings = {
  image: 'Image from the tool',
  audio: 'Audio from the tool',
  resourceLink: 'Resource',
  embeddedResource: 'Embedded resource',
  binary: 'binary data',
  structured: 'Structured result',
  noContent: 'The tool returned no content.',
  copy: 'Copy',
  copied: 'Copied.',
  enlarge: 'Enlarge the image',
  closeImage: 'Close',
};

/** The renderer's strings, taken from an element's (replaceable) strings. */
export function resultStrings(t: (key: keyof ResultStrings) => string): ResultStrings {
  return {
    image: t('image'),
    audio: t('audio'),
    resourceLink: t('resourceLink'),
    embeddedResource: t('embeddedResource'),
    binary: t('binary'),
    structured: t('structured'),
    noContent: t('noContent'),
    copy: t('copy'),
    copied: t('copied'),
    enlarge: t('enlarge'),
    closeImage: t('closeImage'),
  };
}

/** Whether `text` is a JSON object or array (tools' data), not prose. */
function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * The text block that only repeats the structured result as JSON (tools with an output schema
 * send both, as the spec asks, for clients without structured content): its exact text, if any.
 */
function jsonTwin(
  structured: Record<string, unknown> | undefined,
  content: NonNullable<CallToolResult['content']>,
): string | undefined {
  if (!structured) return undefined;
  const canonical = JSON.stringify(structured);
  for (const c of content) {
    if (c.type !== 'text' || !looksLikeJson(c.text)) continue;
    if (JSON.stringify(JSON.parse(c.text)) === canonical) return c.text;
  }
  return undefined;
}

/** What Copy puts on the clipboard: the text blocks, then the structured result as JSON. */
function copyableText(
  content: NonNullable<CallToolResult['content']>,
  structured: Record<string, unknown> | undefined,
): string {
  const parts = content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  if (structured && !parts.some((p) => looksLikeJson(p))) parts.push(JSON.stringify(structured, null, 2));
  return parts.join('\n\n');
}

/** A Copy button and the line that says it worked (or why not), for a result's or arguments' text. */
export function renderCopy(text: string, s: Pick<ResultStrings, 'copy' | 'copied'>): TemplateResult {
  const copy = (e: Event) => {
    // the status span has no template parts inside: setting its text is safe
    const note = (e.currentTarget as HTMLElement).nextElementSibling as HTMLElement;
    navigator.clipboard?.writeText(text).then(
      () => (note.textContent = s.copied),
      (err: Error) => (note.textContent = err.message),
    );
  };
  return html`<div class="copy-row">
    <button type="button" class="copy" part="copy" data-action="copy" @click=${copy}>${s.copy}</button
    ><span class="muted copy-note" role="status"></span>
  </div>`;
}

/**
 * One text block: JSON data pretty-printed in the code font, markdown rendered (sanitised, see
 * markdown-render.ts), any other text as prose in the body font. Never as HTML of its own.
 */
function renderText(text: string): TemplateResult {
  if (looksLikeJson(text))
    return html`<pre tabindex="0" class="text json">${JSON.stringify(JSON.parse(text), null, 2)}</pre>`;
  const prose = html`<pre tabindex="0" class="text prose">${text}</pre>`;
  return looksLikeMarkdown(text) ? html`<div class="text markdown">${markdown(text, prose)}</div>` : prose;
}

/** An image that enlarges: a button (keyboard-reachable) opens it in a modal dialog; Escape, Close or a click outside closes it. */
function renderImage(src: string, alt: string, s: Pick<ResultStrings, 'enlarge' | 'closeImage'>): TemplateResult {
  const open = (e: Event) => {
    const dialog = (e.currentTarget as HTMLElement).nextElementSibling as HTMLDialogElement;
    dialog.showModal();
  };
  // a click on the backdrop hits the dialog itself
  const outside = (e: Event) => e.target === e.currentTarget && (e.currentTarget as HTMLDialogElement).close();
  const close = (e: Event) => (e.currentTarget as HTMLElement).closest('dialog')!.close();
  return html`<button
      type="button"
      class="zoom"
      part="image-zoom"
      data-action="enlarge"
      aria-label=${s.enlarge}
      @click=${open}
    >
      <img part="image" src=${src} alt=${alt} />
    </button>
    <dialog class="zoomed" part="image-dialog" aria-label=${alt} @click=${outside}>
      <img src=${src} alt=${alt} />
      <button type="button" data-action="close-image" @click=${close}>${s.closeImage}</button>
    </dialog>`;
}

/** Render MCP content blocks and structured content. Every server string is text, never HTML. */
export function renderResult(
  result: { content?: CallToolResult['content']; structuredContent?: Record<string, unknown> } | undefined,
  s: ResultStrings,
): TemplateResult {
  const content = result?.content ?? [];
  const twin = jsonTwin(result?.structuredContent, content);
  const text = copyableText(content, result?.structuredContent);
  return html`<div class="result" part="result">
    ${text ? renderCopy(text, s) : nothing}
    ${content.length === 0 && !result?.structuredContent ? html`<p class="muted">${s.noContent}</p>` : nothing}
    ${content.map((c) => {
      switch (c.type) {
        case 'text':
          // the JSON twin of the structured result is shown once, as the tree below
          if (twin !== undefined && c.text === twin) return nothing;
          return renderText(c.text);
        case 'image': {
          const src = dataUrl(c.mimeType, c.data, IMAGE);
          return src ? renderImage(src, s.image, s) : html`<p class="muted">${s.image} (${c.mimeType})</p>`;
        }
        case 'audio': {
          const src = dataUrl(c.mimeType, c.data, AUDIO);
          return src
            ? html`<audio part="audio" controls src=${src} aria-label=${s.audio}></audio>`
            : html`<p class="muted">${s.audio} (${c.mimeType})</p>`;
        }
        case 'resource_link': {
          const href = safeHref(c.uri);
          return html`<p class="resource-link">
            ${s.resourceLink}:
            ${href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${c.title ?? c.name}</a>` : html`<span>${c.title ?? c.name}</span>`}
            <code>${c.uri}</code>${c.description ? html` — ${c.description}` : nothing}
          </p>`;
        }
        case 'resource': {
          const r = c.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
          if (typeof r.text === 'string')
            return html`<div class="resource">
              <p class="muted">${s.embeddedResource}: <code>${r.uri}</code></p>
              ${
                r.mimeType === 'text/markdown'
                  ? html`<div class="markdown">${markdown(r.text, html`<pre tabindex="0">${r.text}</pre>`)}</div>`
                  : html`<pre tabindex="0">${r.text}</pre>`
              }
            </div>`;
          const img = r.mimeType && r.blob ? dataUrl(r.mimeType, r.blob, IMAGE) : undefined;
          return img
            ? html`<div class="resource">
                <p class="muted">${s.embeddedResource}: <code>${r.uri}</code></p>
                ${renderImage(img, r.uri, s)}
              </div>`
            : html`<p class="muted">${s.embeddedResource}: <code>${r.uri}</code> (${r.mimeType ?? s.binary})</p>`;
        }
        default:
          return html`<pre tabindex="0">${JSON.stringify(c, null, 2)}</pre>`;
      }
    })}
    ${
      result?.structuredContent
        ? html`<div class="structured">
            <p class="muted">${s.structured}</p>
            ${renderTree(result.structuredContent)}
          </div>`
        : nothing
    }
  </div>`;
}

/** A call's tool name and server, alike in the card and the task monitor. */
export const callLineStyles = `
  .tool { font-weight: 600; overflow-wrap: anywhere; }
  .server { color: var(--_muted); overflow-wrap: anywhere; }
`;

export const resultStyles = `
  .result img { max-width: 100%; border-radius: 4px; }
  .result .zoom { display: block; padding: 0; border: 0; background: none; cursor: zoom-in; max-width: 100%; justify-self: start; }
  .result .zoom:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .result dialog.zoomed { padding: 0.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_bg); color: var(--_fg); max-width: 95vw; max-height: 95vh; }
  .result dialog.zoomed::backdrop { background: rgb(0 0 0 / 0.6); }
  .result dialog.zoomed img { display: block; max-width: calc(95vw - 2rem); max-height: calc(95vh - 4rem); min-width: min(16rem, 90vw); image-rendering: auto; object-fit: contain; }
  .result dialog.zoomed button { margin-top: 0.5rem; }
  .markdown { line-height: 1.5; overflow-wrap: anywhere; }
  .markdown > :first-child { margin-top: 0; }
  .markdown > :last-child { margin-bottom: 0; }
  .markdown h1, .markdown h2, .markdown h3, .markdown h4, .markdown h5, .markdown h6 { font-size: 1em; margin: 0.6em 0 0.3em; }
  .markdown h1, .markdown h2 { font-size: 1.1em; }
  .markdown p, .markdown ul, .markdown ol, .markdown blockquote, .markdown pre, .markdown table { margin: 0.4em 0; }
  .markdown ul, .markdown ol { padding-left: 1.4em; }
  .markdown blockquote { border-left: 3px solid var(--_border); padding-left: 0.7em; color: var(--_muted); }
  .markdown code { font-family: var(--_mono); font-size: 0.9em; }
  .markdown pre { overflow: auto; padding: 0.4rem 0.6rem; }
  .markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
  .markdown th, .markdown td { border: 1px solid var(--_border); padding: 0.2rem 0.5rem; text-align: left; }
  .markdown a { color: var(--_accent); }
  .result pre.text { background: transparent; padding: 0; max-height: 20rem; }
  .copy-row { display: flex; gap: 0.5rem; align-items: center; justify-content: flex-end; }
  .copy-row .copy { font-size: 0.85em; padding: 0.1rem 0.5rem; }
  .result pre.prose { font-family: var(--_font); font-size: 1em; line-height: 1.5; }
  .tree { list-style: none; margin: 0; padding-left: 1rem; font-family: var(--_mono); font-size: 0.85em; }
  .tree summary { cursor: pointer; }
  .tree-key { color: var(--_accent); }
  .tree-string { color: var(--_success); }
  .resource-link code, .resource code { overflow-wrap: anywhere; }
`;
