// Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension): a server's instructions for a
// model, each a `SKILL.md` with frontmatter and maybe supporting files. The SDK's SkillsClient does
// the protocol and the checks (size, SHA-256 digest, frontmatter equal to the entry); this part
// lists on demand, loads one skill when the host (or the user, in the explorer) asks for it, and
// announces it with `mcp-skill-loaded` so a chat page can put it into its model's context. Files
// are never read ahead of need: listing reads none, and a skill's supporting files are read only
// when asked for by name (`readSkillFile`).
import type { Skill, SkillFile } from '@modelcontextprotocol/client/ext/skills';
import { McpSkillLoadedEvent } from '../../events/index.js';
import type { HubContext } from '../context.js';
import { McpConfigError, McpConnectionError, McpNotFoundError, McpSkillError } from '../errors.js';
import type { McpSession, RequestOptions } from '../session/index.js';

/** The extension's id in a server's `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** One skill as a server lists it: what it is for, and its files (with their sizes), none of them read. */
export interface SkillEntry {
  readonly serverId: string;
  /** Its `SKILL.md` URI (`skill://<path>/SKILL.md`). */
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  /** The entry's frontmatter, verbatim (name and description included). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Its files (`SKILL.md` included) with byte sizes, or `dynamic` when the server computes them. */
  readonly files: readonly { readonly uri: string; readonly size: number }[] | 'dynamic';
}

/** A skill read and verified: its `SKILL.md` (`body` is what goes into the model's context). */
export interface LoadedSkill extends SkillEntry {
  /** The `SKILL.md` after its frontmatter. */
  readonly body: string;
  /** The whole `SKILL.md`, exactly the bytes verified. */
  readonly text: string;
  /** Size and digest matched the entry (false only for a `dynamic` skill). */
  readonly verified: boolean;
}

/** A supporting file of a skill, read and verified. */
export interface SkillFileContent {
  readonly uri: string;
  readonly mimeType?: string;
  /** The text, when the file is text. */
  readonly text?: string;
  /** The bytes the entry's digest covers. */
  readonly bytes: Uint8Array;
  readonly verified: boolean;
}

/** What the skills need from the connections. */
export interface SkillsParts {
  withSession<T>(
    id: string,
    options: RequestOptions,
    run: (session: McpSession, request: RequestOptions) => Promise<T>,
  ): Promise<T>;
  /** The server's live session, if any (to read its capabilities). */
  session(id: string): McpSession | undefined;
}

const entryOf = (serverId: string, s: Skill): SkillEntry =>
  Object.freeze({
    serverId,
    uri: s.uri,
    name: s.frontmatter.name,
    description: s.frontmatter.description,
    frontmatter: Object.freeze({ ...s.frontmatter }),
    files:
      s.resources === 'dynamic'
        ? 'dynamic'
        : Object.freeze(s.resources.map((r) => Object.freeze({ uri: r.uri, size: r.size }))),
  });

/** A verification failure, carried out of the session's error handling untouched. */
class Refused {
  constructor(readonly error: McpSkillError) {}
}

/** The SDK's verification error as ours; anything else as it was. */
function refusal(e: unknown): Refused | undefined {
  const v = e as { name?: string; reason?: string; uri?: string; message?: string; differences?: readonly string[] };
  if (v?.name !== 'SkillVerificationError' || typeof v.reason !== 'string') return undefined;
  const code = (['unlisted', 'size', 'digest', 'frontmatter'] as const).find((c) => c === v.reason) ?? 'invalid';
  const uri = String(v.uri ?? '');
  const why = {
    unlisted: 'is not listed in the skill',
    size: "has another size than the server's entry says",
    digest: "does not match the SHA-256 digest of the server's entry",
    frontmatter: "has frontmatter that differs from the server's entry",
    invalid: 'failed verification',
  }[code];
  const detail = v.differences?.length ? ` (${v.differences.slice(0, 5).join('; ')})` : '';
  return new Refused(new McpSkillError(code, uri, `Skill file ${uri} ${why}${detail}; it was not used.`, { cause: e }));
}

function checkUri(uri: unknown, path: string): string {
  if (typeof uri !== 'string' || !uri || uri.length > 4096 || /\s/.test(uri) || !/^[a-z][a-z0-9+.-]*:/i.test(uri))
    throw new McpConfigError([{ path, message: 'must be a URI such as skill://name/SKILL.md' }]);
  return uri;
}

export class Skills {
  /** The last listing per server: the entries `loadSkill` verifies against. */
  readonly #listed = new Map<string, Map<string, Skill>>();

  constructor(
    private readonly ctx: HubContext,
    private readonly parts: SkillsParts,
  ) {}

  /** Whether a connected server declared the skills extension. */
  offered(id: string): boolean {
    const extensions = (this.parts.session(id)?.capabilities as { extensions?: Record<string, unknown> } | undefined)
      ?.extensions;
    return !!extensions && SKILLS_EXTENSION in extensions;
  }

  async #run<T>(
    id: string,
    options: RequestOptions,
    run: (client: Awaited<ReturnType<NonNullable<McpSession['skills']>>>, request: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const result = await this.parts.withSession(id, options, async (session, request) => {
      if (!session.skills || !this.offered(id))
        throw new McpConnectionError('unsupported', `Server "${this.#name(id)}" offers no skills.`);
      try {
        return await run(await session.skills(), request);
      } catch (e) {
        const r = refusal(e);
        if (r) return r;
        throw e;
      }
    });
    if (result instanceof Refused) throw result.error;
    return result;
  }

  #name(id: string): string {
    return this.ctx.store.state.servers[id]?.name ?? id;
  }

  /** `skills/list` (every page): the entries, no file read. Malformed entries are left out with a warning. */
  async list(id: string, options: RequestOptions = {}): Promise<SkillEntry[]> {
    const listing = await this.#run(id, options, (client, request) => client.list(undefined, request));
    for (const bad of listing.invalid.slice(0, 5))
      this.ctx.warn(`Left out skill ${bad.uri ?? `#${bad.index}`} of "${this.#name(id)}": ${bad.reason}`);
    this.#listed.set(id, new Map(listing.skills.map((s) => [s.uri, s])));
    return listing.skills.map((s) => entryOf(id, s));
  }

  /**
   * Read a skill's `SKILL.md` and verify it against the server's entry (the listed one, else
   * `skills/get`): size, digest, and frontmatter field by field. Fires `mcp-skill-loaded`.
   */
  async load(id: string, uri: string, options: RequestOptions = {}): Promise<LoadedSkill> {
    checkUri(uri, 'uri');
    const { skill, file } = await this.#run(id, options, async (client, request) => {
      const skill = this.#listed.get(id)?.get(uri) ?? (await client.get(uri, request)).skill;
      return { skill, file: await client.read(skill, undefined, request) };
    });
    const text = file.text ?? new TextDecoder().decode(file.bytes);
    const loaded: LoadedSkill = Object.freeze({
      ...entryOf(id, skill),
      body: file.body ?? text,
      text,
      verified: file.verified,
    });
    this.ctx.emit(
      new McpSkillLoadedEvent({
        serverId: id,
        uri: loaded.uri,
        name: loaded.name,
        description: loaded.description,
        body: loaded.body,
        text: loaded.text,
        verified: loaded.verified,
      }),
    );
    return loaded;
  }

  /** Read one supporting file of a listed skill (`ref` relative to the skill, or absolute) and verify it. */
  async readFile(id: string, skillUri: string, ref: string, options: RequestOptions = {}): Promise<SkillFileContent> {
    checkUri(skillUri, 'skillUri');
    if (typeof ref !== 'string' || !ref || ref.length > 4096)
      throw new McpConfigError([{ path: 'ref', message: 'must be a path inside the skill, or a URI' }]);
    const file: SkillFile = await this.#run(id, options, async (client, request) => {
      const skill = this.#listed.get(id)?.get(skillUri) ?? (await client.get(skillUri, request)).skill;
      return client.read(skill, ref, request);
    });
    if (!this.ctx.store.state.servers[id]) throw new McpNotFoundError('server', id);
    return Object.freeze({
      uri: file.uri,
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
      ...(file.text !== undefined ? { text: file.text } : {}),
      bytes: file.bytes,
      verified: file.verified,
    });
  }
}
