// The manager's registry notices: a server saved from a registry entry (`source`) is checked,
// lazily and once per saved version, against the registry's latest version; when that version
// reaches the server another way (URL, transport or headers), its row says so and offers a review.
// A controller holding its own state: the element asks it for a row's notice.
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { ServerConfig } from '../../core/index.js';
import type { RemoteUpdate } from '../../core/registry/index.js';
import type { Translate } from './strings.js';

export type { RemoteUpdate } from '../../core/registry/index.js';

/** Asks the registry (through the directory's chunk); undefined: nothing to say. */
export type RemoteCheck = (server: ServerConfig, signal: AbortSignal) => Promise<RemoteUpdate | undefined>;

/** A registry as the user reads it: its host. */
const registryLabel = (registry: string) => {
  try {
    return new URL(registry).host;
  } catch {
    return registry;
  }
};

export class RegistryNotices implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #check: RemoteCheck;
  /** Per server and saved version: the update found (null: none, or still asking). */
  readonly #found = new Map<string, RemoteUpdate | null>();
  #abort = new AbortController();

  constructor(host: ReactiveControllerHost, check: RemoteCheck) {
    this.#host = host;
    this.#check = check;
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#abort.signal.aborted) {
      this.#abort = new AbortController();
      this.#found.clear(); // asked again when shown again
    }
  }

  hostDisconnected(): void {
    this.#abort.abort();
  }

  /** The update found for `server`, if any; the first call for a saved version starts the check. */
  for(server: ServerConfig): RemoteUpdate | undefined {
    const s = server.source;
    if (!s || s.registry === 'curated') return undefined;
    const key = JSON.stringify([server.id, s.registry, s.name, s.version, server.url]);
    if (!this.#found.has(key)) {
      this.#found.set(key, null);
      const signal = this.#abort.signal;
      this.#check(server, signal)
        .then((update) => {
          if (!update || signal.aborted) return;
          this.#found.set(key, update);
          this.#host.requestUpdate();
        })
        // offline, or the registry refused: nothing to say (the directory says why when opened)
        .catch(() => {});
    }
    return this.#found.get(key) ?? undefined;
  }
}

/** A row's notice: which version, on which registry, reaches the server another way; Review. */
export function renderRemoteUpdate(t: Translate, update: RemoteUpdate | undefined, review: () => void) {
  if (!update) return nothing;
  const text = t('registryUpdate')
    .replace('{version}', () => update.version)
    .replace('{registry}', () => registryLabel(update.registry));
  return html`<p class="registry-update" part="registry-update">
    ${text}
    <button type="button" data-action="review-update" @click=${review}>${t('reviewUpdate')}</button>
  </p>`;
}

/** In the edit form opened by Review: what changed, before the user saves. */
export function renderReviewLine(t: Translate, update: RemoteUpdate) {
  const text = (update.templated ? t('reviewTemplated') : t('reviewFilled'))
    .replace('{version}', () => update.version)
    .replace('{url}', () => update.url);
  return html`<p class="notice" part="registry-review">
    ${text} ${update.headers.length ? html`${t('reviewHeaders')} ${update.headers.join(', ')}.` : nothing}
  </p>`;
}
