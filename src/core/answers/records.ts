// What a server asked of the client, as kept in `state` (memory only: answers are never persisted,
// so nothing a user typed into a form, and no model answer, reaches IndexedDB).

/** A server's request for input: a form (restricted schema) or a URL to open. */
export interface ElicitationRecord {
  readonly id: string;
  readonly serverId: string;
  /** The tool call that was running on that server when the request came (when exactly one was). */
  readonly callId?: string;
  readonly mode: 'form' | 'url';
  /** The server's message (render as text). */
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
  /** URL mode: where the server wants the user to go, and its host name shown prominently. */
  readonly url?: string;
  readonly domain?: string;
  /** 2025-11-25 URL mode: the server's id for completion notifications. */
  readonly elicitationId?: string;
  /** `completed`: a URL elicitation the server said finished. */
  readonly status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'completed';
  /** The host took it over (vetoed `mcp-elicitation-request`): elements do not render it. */
  readonly host: boolean;
  readonly createdAt: number;
}

/** A server's request for a completion from the host's model, with its human checkpoints. */
export interface SamplingRecord {
  readonly id: string;
  readonly serverId: string;
  readonly callId?: string;
  /** The conversation the server sent, as text per message (non-text content named, not shown). */
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly status: 'awaiting-approval' | 'generating' | 'awaiting-review' | 'sent' | 'denied' | 'failed' | 'cancelled';
  /** The model's answer while it waits for review, and after it was sent. */
  readonly answer?: { readonly model: string; readonly text: string };
  readonly error?: string;
  readonly host: boolean;
  readonly createdAt: number;
}

/**
 * One `notifications/message` a server sent (text only), or (`kind: 'protocol'`) a protocol-level
 * failure the hub saw talking to it: a JSON-RPC error, a failed connect, a dropped tool.
 */
export interface ServerLogEntry {
  /** `protocol`: written by the hub, not sent by the server. */
  readonly kind?: 'protocol';
  readonly level: string;
  readonly logger?: string;
  readonly text: string;
  readonly at: number;
}
