import { css } from 'lit';

// the Tools tab's rules and those every tab shares; each other tab brings its own (tabs.ts)
export const styles = css`
  :host {
    --_row-height: 56px;
    --_list-height: var(--mcp-tool-explorer-list-height, 24rem);
    /* list | detail side by side when the element (not the window) is wide enough */
    container-type: inline-size;
  }
  [role='tablist'] {
    display: flex;
    /* narrow: the tabs wrap to a second row, all in sight (a sideways scroller hid the last
       ones at 390 px, with nothing to say they were there, and clipped the focus ring) */
    flex-wrap: wrap;
    gap: 0.25rem;
    border-bottom: 1px solid var(--_border);
    margin-bottom: 0.5rem;
  }
  [role='tab'] {
    min-width: 0;
    overflow-wrap: anywhere;
    border: none;
    border-bottom: 2px solid transparent;
    border-radius: 0;
    background: none;
  }
  [role='tab'][aria-selected='true'] {
    border-bottom-color: var(--_accent);
    font-weight: 600;
  }
  .layout {
    display: grid;
    grid-template-columns: minmax(14rem, 1fr) 2fr;
    gap: 0.75rem;
  }
  @container (max-width: 34rem) {
    .layout {
      grid-template-columns: 1fr;
    }
  }
  /* a phone: tighter tabs, so the five fit one row at 390 px */
  @container (max-width: 26rem) {
    [role='tablist'] {
      gap: 0;
    }
    [role='tab'] {
      padding-inline: 0.45rem;
    }
  }
  input[type='search'] {
    width: 100%;
    margin-bottom: 0.4rem;
  }
  .viewport {
    position: relative;
    height: var(--_list-height);
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .viewport:focus-visible {
    outline: 2px solid var(--_accent);
  }
  .spacer {
    position: relative;
  }
  .row {
    position: absolute;
    left: 0;
    right: 0;
    height: var(--_row-height);
    padding: 0.3rem 0.5rem;
    border-bottom: 1px solid var(--_border);
    cursor: pointer;
    overflow: hidden;
  }
  .row[aria-selected='true'] {
    background: var(--_subtle);
    box-shadow: inset 3px 0 var(--_accent);
  }
  /* the keyboard's row, only while the list has focus: no row looks chosen before a choice */
  .viewport:focus .row.active {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  .row .title {
    font-weight: 600;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    display: flex;
    gap: 0.3rem;
    align-items: center;
  }
  /* the name ellipsises, not the row: text in a flex row is an item of its own */
  .row .title .name {
    overflow: hidden;
    text-overflow: ellipsis;
    min-width: 0;
  }
  .row .title .server {
    flex: none;
    max-width: 40%;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .about {
    margin-bottom: 0.5rem;
    display: grid;
    /* a grid item is as wide as its longest word unless told otherwise: at phone widths the
       revision line pushed the column past the element's edge */
    grid-template-columns: minmax(0, 1fr);
    gap: 0.5rem;
  }
  .about-server,
  .about-facts > span {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .about-server + .about-server {
    margin-top: 0.5rem;
    padding-top: 0.5rem;
    border-top: 1px solid var(--_border);
  }
  .about-head {
    display: flex;
    gap: 0.4rem;
    align-items: center;
    min-width: 0;
  }
  .about-description,
  .about-facts {
    margin: 0.2rem 0 0;
    overflow-wrap: anywhere;
  }
  .about-facts {
    display: flex;
    flex-wrap: wrap;
    gap: 0.2rem 1rem;
    font-size: 0.9em;
  }
  .row .desc {
    color: var(--_muted);
    font-size: 0.85em;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .row img.icon,
  .detail img.icon {
    width: 1rem;
    height: 1rem;
  }
  .badges {
    display: flex;
    gap: 0.3rem;
    flex-wrap: wrap;
  }
  .badge {
    font-size: 0.75em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0 0.45rem;
  }
  .badge.destructive {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  .badge.read-only {
    color: var(--_success);
    border-color: var(--_success);
  }
  .detail {
    display: grid;
    gap: 0.5rem;
    align-content: start;
    min-width: 0;
  }
  .detail h3 {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .description {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 12rem;
    overflow: auto;
    margin: 0;
  }
  .toolbar {
    display: flex;
    gap: 0.5rem;
    flex-wrap: wrap;
    align-items: center;
  }
  .raw textarea {
    width: 100%;
    min-height: 8rem;
    font-family: var(--_mono);
  }
  .invalid {
    color: var(--_danger);
    margin: 0;
    white-space: pre-wrap;
  }
  .field {
    display: grid;
    gap: 0.2rem;
    margin-bottom: 0.4rem;
  }
`;
