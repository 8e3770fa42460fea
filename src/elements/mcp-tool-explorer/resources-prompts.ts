// The Resources and Prompts tabs, one chunk: both list what a server offers besides tools and
// open an item into the result view, with the same strings and rules for that. Imported when
// either tab is first shown (tabs.ts); hands both panels to the element as it runs.
import { css, unsafeCSS } from 'lit';
import { resultStyles } from '../../internal/result-view.js';
import { McpToolExplorerElement } from './mcp-tool-explorer.js';
import { PROMPTS_STRINGS, promptsStyles, renderPrompts } from './prompts-panel.js';
import { read, renderResources, RESOURCES_STRINGS, resourcesStyles } from './resources-panel.js';
import { plainListStyles } from './plain-list.styles.js';

/** The strings both tabs show (English): the result view's, and the wait for a server's lists. */
export const CONTENTS_STRINGS = {
  listing: 'Still listing…',
  image: 'Image',
  copy: 'Copy',
  copied: 'Copied.',
  audio: 'Audio',
  resourceLink: 'Resource',
  embeddedResource: 'Embedded resource',
  binary: 'binary data',
  structured: 'Structured result',
  noContent: 'No content.',
  enlarge: 'Enlarge the image',
  closeImage: 'Close',
  bytes: 'bytes',
};

const contentsStyles = css`
  ${unsafeCSS(resultStyles)}
  /* what a Read or a Get answered: focused when it arrives (reveal.ts) */
  .answer {
    min-width: 0;
    scroll-margin: 0.5rem;
    border-radius: var(--_radius);
  }
  .answer:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .answer > h4 {
    margin: 0 0 0.4rem;
    overflow-wrap: anywhere;
  }
`;

McpToolExplorerElement._definePanel('resources', {
  render: renderResources,
  reread: (el, serverId, uri) => void read(el, serverId, () => uri),
  strings: { ...CONTENTS_STRINGS, ...RESOURCES_STRINGS },
  styles: [plainListStyles, contentsStyles, resourcesStyles],
});
McpToolExplorerElement._definePanel('prompts', {
  render: renderPrompts,
  strings: { ...CONTENTS_STRINGS, ...PROMPTS_STRINGS },
  styles: [plainListStyles, contentsStyles, promptsStyles],
});
