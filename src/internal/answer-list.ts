// Renders requests from servers (elicitations and samplings) as the internal views, keyed by id
// so each keeps its own typed values and focus. Used by <mcp-elicitation> and <mcp-tool-call>.
import { html, nothing } from 'lit';
import type { ElicitationRecord, HubState, McpHub, SamplingRecord } from '../core/index.js';
import type { AnswerStrings } from './answer-strings.js';
import { importOnce } from './import-once.js';

/**
 * The views are a chunk of their own, fetched the first time a request is shown: a chat page's
 * cards need them only when a server asks for something during a call. Until it arrives the
 * tags are undefined and empty; lit keeps the properties set on them and applies them on upgrade.
 * A failed import is logged and tried again at the next request shown.
 */
export const loadAnswerViews = importOnce('the answer views', () => import('./answer-views-define.js'));

export type ServerRequest = ElicitationRecord | SamplingRecord;
export const isSampling = (r: ServerRequest): r is SamplingRecord => 'maxTokens' in r;

/** Still waiting on the user (or, for sampling, on the model the user approved). */
export const isOpen = (r: ServerRequest) =>
  isSampling(r) ? ['awaiting-approval', 'generating', 'awaiting-review'].includes(r.status) : r.status === 'pending';

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

/** One request as its view (wrap it in `repeat` keyed by `r.id`, so each keeps its own state). */
export function renderRequest(
  r: ServerRequest,
  host: { hub: McpHub; strings: unknown; theme?: string },
  serverName: (serverId: string) => string,
) {
  void loadAnswerViews();
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
