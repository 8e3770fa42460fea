// What the Resources and Prompts tabs share (one chunk, resources-prompts.ts): the strings and
// rules of the result view they open an item into, and of the answer region (reveal.ts).
import { css, unsafeCSS } from 'lit';
import { resultStyles } from '../../internal/result-view.js';
import type { ContentsStrings } from './strings.js';

/** The strings both tabs show (English): the result view's, and the wait for a server's lists. */
export const CONTENTS_STRINGS: ContentsStrings = {
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

export const contentsStyles = css`
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
