// An error as a person reads it: one plain sentence first, the diagnosis (CORS header names, a
// server's own words, the technical detail) behind "Details", and never a server's HTML page —
// a wrong path used to show `<!DOCTYPE html> … Cannot POST /` in the server row. The core's
// messages stay complete (hosts, logs and tests read them); only the display is shaped here.
import { html, nothing, type TemplateResult } from 'lit';

export interface ErrorText {
  /** One sentence, shown first. */
  summary: string;
  /** The rest, shown under "Details" (absent when there is nothing more). */
  details?: string;
}

const HTML_START = /<(?:!doctype\b|html\b|head\b|body\b|title\b|pre\b|h[1-6]\b|p\b|div\b|center\b)/i;
const MAX_SUMMARY = 160;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The words of an HTML page a server sent instead of an answer: its body's text, else its title. */
export function htmlToText(markup: string): string {
  // text, not a parse: a parsed page (even DOMParser's inert one) reports its inline styles to
  // a strict CSP, and nothing here needs more than the words
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(markup)?.[1] ?? '';
  const body = markup
    .replace(/<(script|style|head|template)\b[^>]*>[^]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m);
  const text = (body.replace(/\s+/g, ' ').trim() || title.trim()).replace(/[<>]/g, '');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** `message` with any HTML page in it replaced by that page's words, in quotes. */
export function withoutHtml(message: string): string {
  const start = message.search(HTML_START);
  if (start < 0) return message;
  const end = message.lastIndexOf('>');
  if (end < start) return message;
  const words = htmlToText(message.slice(start, end + 1));
  return `${message.slice(0, start)}${words ? `“${words}”` : ''}${message.slice(end + 1)}`.replace(/\s+/g, ' ').trim();
}

/** Split a message after its first sentence. */
function firstSentence(message: string): ErrorText {
  // a sentence ends at . ! or ? followed by a space and more text (not inside a URL or 1.5)
  const m = /^(.+?[.!?])\s+(\S[\s\S]*)$/.exec(message);
  let summary = m ? m[1]! : message;
  let details = m ? m[2] : undefined;
  if (summary.length > MAX_SUMMARY) {
    details = message;
    summary = `${summary.slice(0, MAX_SUMMARY - 1)}…`;
  }
  return details ? { summary, details } : { summary };
}

/** The host and port a URL names (`127.0.0.1:9`), or the text itself when it is no URL. */
function place(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * How to show an error: a plain first sentence and the rest as details. `url` (the server's)
 * turns a network failure into "Couldn't reach host:port — is the server running and the URL
 * right?", with the core's diagnosis (CORS, header names) as the details.
 */
export function errorText(error: { code?: string; message: string }, options: { url?: string } = {}): ErrorText {
  const message = withoutHtml(error.message);
  // the core tells "nothing answered" from "answered, but CORS refused" (session/index.ts): only
  // the first is a reach problem; the second leads with its own sentence
  const refused = /\banswered, but\b/i.test(message);
  if (
    error.code === 'network' &&
    options.url &&
    !refused &&
    /\b(reach|fetch|network|CORS)\b|^Nothing answered\b/i.test(message)
  )
    return {
      summary: `Couldn't reach ${place(options.url)} — is the server running and the URL right?`,
      details: message,
    };
  return firstSentence(message);
}

/**
 * The error's first sentence (class `error-summary`, one line where the CSS says so) and a
 * "Details" disclosure with the rest. `label` is the element's replaceable string for "Details".
 */
export function renderErrorText(
  text: ErrorText,
  label: string,
  attrs: { part?: string; className?: string } = {},
): TemplateResult {
  return html`<div class="error-text-block ${attrs.className ?? ''}" part=${attrs.part ?? nothing}>
    <span class="error-summary" title=${text.summary}>${text.summary}</span>
    ${
      text.details
        ? html`<details class="error-details">
            <summary>${label}</summary>
            <p>${text.details}</p>
          </details>`
        : nothing
    }
  </div>`;
}
