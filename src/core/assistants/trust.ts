// What "Always allow" trusts: one tool definition (name, description, input schema, annotations)
// served from one origin. A trusted entry holds both; a call is trusted only while the server
// still has that origin and the tool that definition. Entries stored before the binding existed
// (server id and tool name only) are untrusted until the user allows the tool once more.
import type { Tool } from '@modelcontextprotocol/client';
import type { AssistantProfile } from './profile.js';
import { canonicalJson } from '../canonical-json.js';

/** One trusted tool, bound to what the user trusted. */
export interface TrustedTool {
  readonly serverId: string;
  readonly tool: string;
  /** The server's origin when it was trusted. */
  readonly origin?: string;
  /** SHA-256 (hex) of the definition when it was trusted (see `toolFingerprint`). */
  readonly hash?: string;
}

/** The origin of a server URL; undefined for one that does not parse. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * SHA-256 (hex) of the parts of a tool the user judged: name, description, input schema and
 * annotations. Undefined where WebCrypto is missing (a page that is not a secure context): such a
 * tool is never trusted, so every call asks.
 */
export async function toolFingerprint(tool: Pick<Tool, 'name' | 'description' | 'inputSchema' | 'annotations'>) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const text = canonicalJson({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? {},
    annotations: tool.annotations ?? {},
  });
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The binding for trusting `tool` of a server at `url` now (unbound when either is unknown). */
export async function bindTrust(
  serverId: string,
  toolName: string,
  url: string | undefined,
  tool: Tool | undefined,
): Promise<TrustedTool> {
  const origin = url ? originOf(url) : undefined;
  const hash = tool ? await toolFingerprint(tool) : undefined;
  return { serverId, tool: toolName, ...(origin && hash ? { origin, hash } : {}) };
}

/** Whether the profile trusts this tool as the server at `url` defines it now. */
export async function isTrustedNow(profile: AssistantProfile, serverId: string, url: string, tool: Tool) {
  const entry = profile.trusted.find((t) => t.serverId === serverId && t.tool === tool.name);
  if (!entry?.origin || !entry.hash) return false;
  return entry.origin === originOf(url) && entry.hash === (await toolFingerprint(tool));
}
