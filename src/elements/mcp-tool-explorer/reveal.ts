// A resource's Read and a prompt's Get answer far from the button on a narrow page (below the
// whole list): once the answer (or the error) is shown, focus moves to it and it scrolls into
// view, so the click visibly did something and a screen reader reads where it landed.

/** The element focused now, inside shadow roots too. */
export function deepFocus(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/**
 * After the render that shows an answer: focus `selector` (a labelled region with tabindex -1)
 * and bring it into view, unless the user moved focus elsewhere while waiting (`before`: what
 * had focus when they asked).
 */
export async function reveal(
  host: { updateComplete: Promise<unknown>; renderRoot: ParentNode },
  selector: string,
  before: Element | null,
): Promise<void> {
  await host.updateComplete;
  if (deepFocus() !== before) return;
  const pane = host.renderRoot.querySelector<HTMLElement>(selector);
  if (!pane) return;
  pane.focus({ preventScroll: true });
  // nearest: a short answer scrolls up just enough, a tall one shows from its start
  pane.scrollIntoView({ block: 'nearest' });
}
