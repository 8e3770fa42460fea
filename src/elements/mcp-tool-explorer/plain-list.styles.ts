import { css } from 'lit';

/** The bordered plain list the explorer's Resources, Prompts and Skills tabs share. */
export const plainListStyles = css`
  ul.plain {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.3rem;
  }
  ul.plain > li {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.4rem 0.6rem;
    overflow-wrap: anywhere;
  }
`;
