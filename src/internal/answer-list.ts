// Renders requests from servers (elicitations and samplings) as the internal views, keyed by id
// so each keeps its own typed values and focus. Used by <mcp-elicitation> and <mcp-tool-call>.
import { html, nothing } from 'lit';
import type { ElicitationRecord, HubState, McpHub, SamplingRecord } from '../core/index.js';
import { ANSWER_STRINGS, type AnswerStrings } from './answer-strings.js';
import { replaceableImport } from './import-once.js';

/**
 * The views are a chunk of their own, fetched the first time a request is shown: a chat page's
 * cards need them only when a server asks for something during a call. Until it arrives the
 * tags are undefined and empty; lit keeps the properties set on them and applies them on upgrade.
 * A failed import is logged, and every element showing a request says so with a "Try again"
 * button (the server is still waiting for the answer).
 */
const viewsImport = replaceableImport<unknown>('the answer views', () => import('./answer-views-define.js'));
export const loadAnswerViews = () => viewsImport.load();
/** The last import failed and nobody asked to try again since. */
let viewsFailed = false;
/** The views are defined: nothing more to wait for. */
let viewsLoaded = false;
/** Elements that rendered a request before the views arrived: re-rendered when the import ends. */
const waiting = new Set<{ requestUpdate(): void }>();

function ensureViews(host: { requestUpdate(): void }) {
  const first = waiting.size === 0;
  waiting.add(host);
  if (!first) return;
  void loadAnswerViews().then((m) => {
    viewsFailed = m === undefined;
    viewsLoaded = !viewsFailed;
    const hosts = [...waiting];
    waiting.clear();
    for (const h of hosts) h.requestUpdate();
  });
}

/**
 * Tests: import the views through `load` from now on (given the real import: a failing fetch);
 * without `load`, the real import again. @internal
 */
export function replaceAnswerViewsImport(replacement?: (real: () => Promise<unknown>) => Promise<unknown>): void {
  viewsImport.replace(replacement);
  viewsLoaded = false;
  viewsFailed = false;
}

export type ServerRequest = ElicitationRecord | SamplingRecord;
export const isSampling = (r: ServerRequest): r is SamplingRecord => 'maxTokens' in r;

/** Still waiting on the user (or, for sampling, on the model the user approved). */
export const isOpen = (r: ServerRequest) =>
  isSampling(r) ? ['awaiting-approval', 'generating', 'awaiting-review'].includes(r.status) : r.status === 'pending';

/**
 * Waiting on the user (not on the model): an elicitation not yet answered, a sampling request to
 * approve or whose answer to review. A card says "waiting for you" instead of its running timer.
 */
export const waitsOnUser = (r: ServerRequest) =>
  isSampling(r) ? r.status === 'awaiting-approval' || r.status === 'awaiting-review' : r.status === 'pending';

/** Requests the elements render (not taken over by the host), oldest first. */
export function requestsIn(state: HubState, keep: (r: ServerRequest) => boolean): ServerRequest[] {
  return [...Object.values(state.elicitations), ...Object.values(state.samplings)]
    .filter((r) => !r.host && keep(r))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
}

/** The string that says what became of a request that no longer waits. */
export function outcomeKey(r: ServerRequest): keyof AnswerStrings {
  const keys: Record<string, keyof AnswerStrings> = isSampling(r)
    ? { sent: 'samplingSent', denied: 'samplingDenied', failed: 'samplingFailed', cancelled: 'samplingCancelled' }
    : {
        accepted: 'answeredAccepted',
        declined: 'answeredDeclined',
        completed: 'answeredCompleted',
        cancelled: 'answeredCancelled',
      };
  return keys[r.status] ?? (isSampling(r) ? 'samplingCancelled' : 'answeredCancelled');
}

/** What renders requests: an element with the answer strings among its own. */
export interface RequestHost {
  hub: McpHub;
  strings: unknown;
  theme?: string;
  requestUpdate(): void;
}

/** One request as its view (wrap it in `repeat` keyed by `r.id`, so each keeps its own state). */
export function renderRequest(r: ServerRequest, host: RequestHost, serverName: (serverId: string) => string) {
  const t = (k: 'viewsFailed' | 'viewsRetry') => (host.strings as Partial<AnswerStrings>)?.[k] ?? ANSWER_STRINGS[k];
  if (viewsFailed)
    return html`<p class="error-text" role="alert" part="views-failed">
      ${t('viewsFailed')}
      <button
        type="button"
        @click=${() => {
          viewsFailed = false;
          host.requestUpdate();
        }}
      >
        ${t('viewsRetry')}
      </button>
    </p>`;
  if (!viewsLoaded) ensureViews(host);
  // two literal templates: a tag cannot be a binding (and lit's static html defeats the linter)
  return isSampling(r)
    ? html`<mcp-sampling-view
        .hub=${host.hub}
        .record=${r}
        .serverName=${serverName(r.serverId)}
        .strings=${host.strings}
        theme=${host.theme || nothing}
      ></mcp-sampling-view>`
    : html`<mcp-elicitation-view
        .hub=${host.hub}
        .record=${r}
        .serverName=${serverName(r.serverId)}
        .strings=${host.strings}
        theme=${host.theme || nothing}
      ></mcp-elicitation-view>`;
}
