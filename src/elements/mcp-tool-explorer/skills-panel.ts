// The explorer's Skills tab (SEP-2640): the skills of the shown servers that offer them, listed
// when the tab is first shown (`hub.listSkills`: no skill file is read), and "Use in chat", which
// loads one (`hub.loadSkill`: its SKILL.md, verified) and so fires `mcp-skill-loaded` for the chat
// page to put into its model's context. A chunk of its own, imported when the tab is first shown.
import { css, html, nothing } from 'lit';
import type { LoadedSkill, SkillEntry } from '../../core/index.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { idPart, type Translate } from './strings.js';
import { plainListStyles } from './plain-list.styles.js';

/** What the tab holds per explorer (not element state: the element knows nothing of skills). */
interface SkillsView {
  /** The servers the listing is for (ids, joined), its state, and the skills. */
  listing?: { key: string; state: 'loading' | 'done'; skills: SkillEntry[]; errors: string[] };
  /** The skill being loaded or loaded (`serverId\0uri`). */
  skill?: { key: string; state: 'loading' | 'done' | 'error'; loaded?: LoadedSkill; error?: string };
}
const views = new WeakMap<McpToolExplorerElement, SkillsView>();
const viewOf = (el: McpToolExplorerElement) => {
  let v = views.get(el);
  if (!v) views.set(el, (v = {}));
  return v;
};

/** The connected servers shown that offer skills. */
function offering(el: McpToolExplorerElement): string[] {
  return el
    ._shownServers()
    .map(({ server }) => server.id)
    .filter((id) => el.hub.status(id).status === 'connected' && el.hub.offersSkills(id));
}

const listingKey = (el: McpToolExplorerElement, ids: string[]) =>
  ids.map((id) => `${id}@${el.hub.status(id).since}`).join('\u0000');

/** List the skills of these servers (once per set of servers; again when it changes). */
function list(el: McpToolExplorerElement, ids: string[]) {
  const view = viewOf(el);
  const key = listingKey(el, ids);
  const listing: NonNullable<SkillsView['listing']> = { key, state: 'loading', skills: [], errors: [] };
  view.listing = listing;
  void Promise.all(
    ids.map((id) =>
      el.hub.listSkills(id).then(
        (skills) => listing.skills.push(...skills),
        (e: Error) => listing.errors.push(`${el.hub.servers.get(id)?.name ?? id}: ${e.message}`),
      ),
    ),
  ).then(() => {
    listing.state = 'done';
    el.requestUpdate();
  });
}

async function use(el: McpToolExplorerElement, skill: SkillEntry) {
  const view = viewOf(el);
  const key = `${skill.serverId}\u0000${skill.uri}`;
  view.skill = { key, state: 'loading' };
  el.requestUpdate();
  try {
    view.skill = { key, state: 'done', loaded: await el.hub.loadSkill(skill.serverId, skill.uri) };
  } catch (e) {
    view.skill = { key, state: 'error', error: (e as Error).message };
  }
  el.requestUpdate();
}

function renderSkill(el: McpToolExplorerElement, tr: Translate, s: SkillEntry) {
  const key = `${s.serverId}\u0000${s.uri}`;
  const current = viewOf(el).skill?.key === key ? viewOf(el).skill : undefined;
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
      @click=${() => void use(el, s)}
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

export function renderSkills(el: McpToolExplorerElement, tr: Translate) {
  const ids = offering(el);
  if (ids.length === 0) return html`<p class="muted">${tr('noSkills')}</p>`;
  const view = viewOf(el);
  // listed again when the servers shown change or one of them connected anew (a new session)
  if (view.listing?.key !== listingKey(el, ids)) list(el, ids);
  const listing = view.listing!;
  if (listing.state === 'loading') return html`<p class="muted" role="status">${tr('listingSkills')}</p>`;
  return html`${listing.errors.map((e) => html`<p class="error-text" role="alert">${e}</p>`)}
    ${listing.skills.length === 0 && !listing.errors.length ? html`<p class="muted">${tr('noSkills')}</p>` : nothing}
    <ul class="plain" aria-label=${tr('skills')}>
      ${listing.skills.map((s) => renderSkill(el, tr, s))}
    </ul>`;
}

/** The strings only this tab shows (English); hosts replace any through the explorer's `strings`. */
export const SKILLS_STRINGS = {
  noSkills: 'No skills.',
  listingSkills: 'Listing skills…',
  skillFiles: 'files',
  skillDynamic: 'files computed by the server',
  bytes: 'bytes',
  useSkill: 'Use in chat',
  skillUsed: 'Verified and handed to the chat page.',
};

const skillsStyles = css`
  .skill-body {
    white-space: pre-wrap;
    max-height: 16rem;
    overflow: auto;
  }
`;

McpToolExplorerElement._definePanel('skills', {
  render: renderSkills,
  strings: SKILLS_STRINGS,
  styles: [plainListStyles, skillsStyles],
});
