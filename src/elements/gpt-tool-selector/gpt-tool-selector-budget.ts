// The context-budget parts of <gpt-tool-selector>: the token estimate per tool and per server, and
// the pin toggle per tool (pinned tools are always sent when the host gives toolsFor a budget).
import { css, html, nothing } from 'lit';
import { estimateTokens, type McpHub } from '../../core/index.js';

/** Token estimates of an assistant's selected tools: per tool (`serverId` NUL `tool`) and per server. */
export interface ToolTokens {
  readonly perTool: ReadonlyMap<string, number>;
  readonly perServer: ReadonlyMap<string, number>;
}

export const toolKey = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

/** The same estimate toolsFor budgets with: characters / 4 of each tool in the OpenAI format. */
export function toolTokens(hub: McpHub, assistantId: string): ToolTokens {
  const model = hub.modelTools({ assistantId });
  const entries = hub.toolsFor('openai', { assistantId });
  const perTool = new Map<string, number>();
  const perServer = new Map<string, number>();
  model.forEach((t, i) => {
    const n = estimateTokens(entries[i]);
    perTool.set(toolKey(t.serverId, t.tool.name), n);
    perServer.set(t.serverId, (perServer.get(t.serverId) ?? 0) + n);
  });
  return { perTool, perServer };
}

/** `~123 tokens`, or nothing when there is no estimate (the tool is not selected). */
export const tokensLabel = (n: number | undefined, word: string) =>
  n === undefined ? nothing : html`<span class="tokens" data-tokens=${n}>~${n.toLocaleString('en')} ${word}</span>`;

/** A toggle button (aria-pressed) whose accessible name names the tool. */
export const pinToggle = (pinned: boolean, label: string, text: string, toggle: () => void) =>
  html`<button
    class="pin"
    part="pin"
    data-action="pin"
    aria-pressed=${pinned ? 'true' : 'false'}
    aria-label=${label}
    aria-describedby="pin-help"
    @click=${toggle}
  >
    ${text}
  </button>`;

export const budgetStyles = css`
  .tokens {
    font-size: 0.85em;
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .pin {
    font-size: 0.85em;
    padding: 0 0.4rem;
  }
  .pin[aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-fg);
    border-color: var(--_accent);
  }
`;
