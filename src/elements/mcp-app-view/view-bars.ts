// The bars above a view: its calls waiting for the user's approval (one bar per tool, with how many
// wait), and the questions it asks the user (a link to open, a file to save), each answered once.
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { McpHub, ToolCallRecord } from '../../core/index.js';
import type { ViewDownload } from '../../apps/download.js';
import type { Translate } from './strings.js';

/** The view's waiting calls, one bar per tool: its oldest call and how many wait. */
function byTool(asking: readonly ToolCallRecord[]): [ToolCallRecord, number][] {
  const groups = new Map<string, [ToolCallRecord, number]>();
  for (const c of asking) {
    const g = groups.get(c.tool);
    if (g) g[1]++;
    else groups.set(c.tool, [c, 1]);
  }
  return [...groups.values()];
}

/** Allow once / Always for this view / Deny for the view's calls waiting for approval. */
export function approvalBars(hub: McpHub, asking: readonly ToolCallRecord[], t: Translate) {
  // "Always for this view": this call and the view's other waiting calls of the same tool
  const always = (tool: string) => {
    for (const c of asking) if (c.tool === tool) hub.calls.approve(c.id, { always: true });
  };
  return repeat(
    byTool(asking),
    ([first]) => first.id,
    ([c, waiting]) =>
      html`<div class="bar" part="approval" role="group" aria-label=${t('appCall').replace('{tool}', c.tool)}>
        <span
          >${t('appCall').replace('{tool}', c.toolTitle ?? c.tool)}
          ${waiting > 1 ? t('waiting').replace('{n}', String(waiting)) : nothing}</span
        >
        <button class="primary" data-action="allow-once" @click=${() => hub.calls.approve(c.id)}>
          ${t('allowOnce')}
        </button>
        <button data-action="always-allow" @click=${() => always(c.tool)}>${t('alwaysAllow')}</button>
        <button class="danger" data-action="deny" @click=${() => hub.calls.deny(c.id)}>${t('deny')}</button>
      </div>`,
  );
}

type Question<Q> = Q & { answer: (ok: boolean) => void };

/**
 * What the view asks the user: a link to open, a file to save. One question of each kind at a
 * time: a newer one answers the older no, and so does the element leaving the page.
 */
export class ViewQuestions implements ReactiveController {
  link?: Question<{ url: string }>;
  download?: Question<{ file: ViewDownload }>;
  readonly #host: ReactiveControllerHost & { renderRoot: HTMLElement | DocumentFragment };
  readonly #t: Translate;

  constructor(host: ReactiveControllerHost & { renderRoot: HTMLElement | DocumentFragment }, t: Translate) {
    this.#host = host;
    this.#t = t;
    host.addController(this);
  }

  hostDisconnected() {
    this.link?.answer(false);
    this.download?.answer(false);
  }

  confirmLink(url: string): Promise<boolean> {
    this.link?.answer(false);
    return new Promise((resolve) => {
      this.link = { url, answer: (ok) => this.#answered('link', ok, resolve) };
      this.#host.requestUpdate();
    });
  }

  confirmDownload(file: ViewDownload): Promise<boolean> {
    this.download?.answer(false);
    return new Promise((resolve) => {
      this.download = { file, answer: (ok) => this.#answered('download', ok, resolve) };
      this.#host.requestUpdate();
    });
  }

  #answered(kind: 'link' | 'download', ok: boolean, resolve: (ok: boolean) => void) {
    this[kind] = undefined;
    this.#host.requestUpdate();
    resolve(ok);
  }

  #openLink(url: string) {
    // in the click: a user activation, a new tab, no opener, no referrer
    window.open(url, '_blank', 'noopener,noreferrer');
    this.link?.answer(true);
  }

  #save(file: ViewDownload) {
    // in the click: a user activation; an inline file through an object URL, a link in a new tab
    if ('url' in file) window.open(file.url, '_blank', 'noopener,noreferrer');
    else {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(file.blob);
      a.download = file.name;
      a.rel = 'noopener';
      this.#host.renderRoot.append(a);
      a.click();
      a.remove();
      // the browser has read it once the click returned; Firefox needs a moment more
      setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    }
    this.download?.answer(true);
  }

  render() {
    const t = this.#t;
    const { link, download } = this;
    return html`${
      link
        ? html`<div class="bar" part="link" role="group" aria-label=${t('openLink')}>
            <span>${t('openLink')} <code>${link.url}</code></span>
            <button class="primary" data-action="open-link" @click=${() => this.#openLink(link.url)}>
              ${t('open')}
            </button>
            <button data-action="cancel-link" @click=${() => link.answer(false)}>${t('cancel')}</button>
          </div>`
        : nothing
    }${
      download
        ? html`<div class="bar" part="download" role="group" aria-label=${t('download')}>
            <span
              >${t('download')}
              <code>${download.file.name}</code>
              ${'size' in download.file ? `(${Math.ceil(download.file.size / 1024)} KB)` : nothing}</span
            >
            <button class="primary" data-action="download" @click=${() => this.#save(download.file)}>
              ${t('save')}
            </button>
            <button data-action="cancel-download" @click=${() => download.answer(false)}>${t('cancel')}</button>
          </div>`
        : nothing
    }`;
  }
}
