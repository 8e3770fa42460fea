// The explorer's Skills tab (SEP-2640): the skills of the shown servers that offer them, listed
// when the tab is first shown (`hub.listSkills`: no skill file is read), and "Use in chat", which
// loads one (`hub.loadSkill`: its SKILL.md, verified) and so fires `mcp-skill-loaded` for the chat
// page to put into its model's context. A chunk of its own, imported when the tab is first shown;
// one `SkillsTab` per explorer holds the listing and the skill used.
import { css, html, nothing } from 'lit';
import type { LoadedSkill, SkillEntry } from '../../core/index.js';
import { ExplorerPart, idPart, type TabView, type Translate } from './host.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { plainListStyles } from './plain-list.styles.js';
import type { SkillsStrings } from './strings.js';

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const SKILLS_STRINGS: SkillsStrings = {
  noSkills: 'No skills.',
  listingSkills: 'Listing skills…',
  skillFiles: 'files',
  skillDynamic: 'files computed by the server',
  bytes: 'bytes',
  useSkill: 'Use in chat',
  skillUsed: 'Verified and handed to the chat page.',
};
type Tr = Translate<SkillsStrings & { skills: string }>;

/** The servers a listing is for (ids, joined), its state, and the skills. */
interface Listing {
  key: string;
  state: 'loading' | 'done';
  skills: SkillEntry[];
  errors: string[];
}

class SkillsTab extends ExplorerPart implements TabView {
  #listing?: Listing;
  /** The skill being loaded or loaded (`serverId\0uri`). */
  #skill?: { key: string; state: 'loading' | 'done' | 'error'; loaded?: LoadedSkill; error?: string };

  get #hub() {
    return this.context.host.hub;
  }

  /** The connected servers shown that offer skills. */
  #offering(): string[] {
    return this.context
      .shownServers()
      .map(({ server }) => server.id)
      .filter((id) => this.#hub.status(id).status === 'connected' && this.#hub.offersSkills(id));
  }

  #listingKey(ids: string[]) {
    return ids.map((id) => `${id}@${this.#hub.status(id).since}`).join('\u0000');
  }

  /** List the skills of these servers (once per set of servers; again when it changes). */
  #list(ids: string[]) {
    const listing: Listing = { key: this.#listingKey(ids), state: 'loading', skills: [], errors: [] };
    this.#listing = listing;
    const hub = this.#hub;
    void Promise.all(
      ids.map((id) =>
        hub.listSkills(id).then(
          (skills) => listing.skills.push(...skills),
          (e: Error) => listing.errors.push(`${hub.servers.get(id)?.name ?? id}: ${e.message}`),
        ),
      ),
    ).then(() => {
      listing.state = 'done';
      this.changed();
    });
  }

  async #use(skill: SkillEntry) {
    const key = `${skill.serverId}\u0000${skill.uri}`;
    this.#skill = { key, state: 'loading' };
    this.changed();
    try {
      this.#skill = { key, state: 'done', loaded: await this.#hub.loadSkill(skill.serverId, skill.uri) };
    } catch (e) {
      this.#skill = { key, state: 'error', error: (e as Error).message };
    }
    this.changed();
  }

  #renderSkill(tr: Tr, s: SkillEntry) {
    const key = `${s.serverId}\u0000${s.uri}`;
    const current = this.#skill?.key === key ? this.#skill : undefined;
    const files = s.files === 'dynamic' ? undefined : s.files;
    const bytes = files?.reduce((sum, f) => sum + f.size, 0);
    const id = `skill-${idPart(s.serverId)}-${idPart(s.name)}`;
    return html`<li data-skill=${s.uri}>
      <strong id=${id}>${s.name}</strong>
      <div class="muted">${s.description}</div>
      <div class="muted">
        ${files ? `${files.length} ${tr('skillFiles')}, ${bytes} ${tr('bytes')}` : tr('skillDynamic')}
      </div>
      <button
        data-action="use-skill"
        aria-describedby=${id}
        ?disabled=${current?.state === 'loading'}
        @click=${() => void this.#use(s)}
      >
        ${tr('useSkill')}
      </button>
      ${current?.state === 'error' ? html`<p class="error-text" role="alert">${current.error}</p>` : nothing}
      ${
        current?.state === 'done' && current.loaded
          ? html`<p class="muted" role="status">${tr('skillUsed')}</p>
              <pre class="skill-body">${current.loaded.body}</pre>`
          : nothing
      }
    </li>`;
  }

  render(tr: Tr) {
    const ids = this.#offering();
    if (ids.length === 0) return html`<p class="muted">${tr('noSkills')}</p>`;
    // listed again when the servers shown change or one of them connected anew (a new session)
    if (this.#listing?.key !== this.#listingKey(ids)) this.#list(ids);
    const listing = this.#listing!;
    if (listing.state === 'loading') return html`<p class="muted" role="status">${tr('listingSkills')}</p>`;
    return html`${listing.errors.map((e) => html`<p class="error-text" role="alert">${e}</p>`)}
      ${listing.skills.length === 0 && !listing.errors.length ? html`<p class="muted">${tr('noSkills')}</p>` : nothing}
      <ul class="plain" aria-label=${tr('skills')}>
        ${listing.skills.map((s) => this.#renderSkill(tr, s))}
      </ul>`;
  }
}

const skillsStyles = css`
  .skill-body {
    white-space: pre-wrap;
    max-height: 16rem;
    overflow: auto;
  }
`;

McpToolExplorerElement._definePanel('skills', {
  create: (context) => new SkillsTab(context),
  strings: SKILLS_STRINGS,
  styles: [plainListStyles, skillsStyles],
});
