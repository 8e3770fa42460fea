import { McpEvent } from './mcp-event.js';
export interface McpSkillLoadedDetail {
  readonly serverId: string;
  /** The skill's `SKILL.md` URI (`skill://…/SKILL.md`). */
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  /** The `SKILL.md` after its frontmatter: the instructions to put into the model's context. */
  readonly body: string;
  /** The whole `SKILL.md`, exactly as verified. */
  readonly text: string;
  /** Its size and SHA-256 matched the server's entry (false only for a `dynamic` skill). */
  readonly verified: boolean;
}

/**
 * `mcp-skill-loaded`: a server's skill (SEP-2640) was read and verified (`hub.loadSkill`, or the
 * explorer's "Use in chat"); a chat page puts `body` into its model's context. Server text: show
 * it as text, never as HTML.
 */
export class McpSkillLoadedEvent extends McpEvent<'mcp-skill-loaded', McpSkillLoadedDetail> {
  static readonly eventName = 'mcp-skill-loaded';
  constructor(detail: McpSkillLoadedDetail) {
    super('mcp-skill-loaded', detail);
  }
}
