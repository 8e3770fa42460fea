// The elements reflow to a phone's width in every engine (issue 25 item 2): inside a 256, 320 and
// 390 px column, nothing in any shadow tree ends past the column's right edge (what is inside
// a scroller of its own scrolls instead), and no element is wider than the column.
import { expect } from '@open-wc/testing';
import { allElements } from './all-elements.js';

/** Descendants (shadow trees included) past `right`, unless a scroller inside `limit` holds them. */
function pastEdge(host: Element, right: number): string[] {
  const out: string[] = [];
  const walk = (root: ParentNode) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= right + 0.5) continue;
      // inside a closed <details>: laid out, not shown
      if (!el.checkVisibility()) continue;
      let scrolled = false;
      for (let p = el.parentElement ?? ((el.getRootNode() as ShadowRoot).host as Element | undefined); p;) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') {
          scrolled = p.getBoundingClientRect().right <= right + 0.5;
          break;
        }
        p = p.parentElement ?? ((p.getRootNode() as ShadowRoot).host as Element | undefined);
      }
      if (!scrolled)
        out.push(
          `${(el.getRootNode() as ShadowRoot).host?.localName ?? ''} ${el.localName}.${String(el.className)} right=${Math.round(r.right)}`,
        );
    }
  };
  walk(host.shadowRoot ?? host);
  return out.slice(0, 12);
}

describe('the elements at phone widths', () => {
  // 256: an element in a padded card of a 320 px screen (the demo's Settings sheet)
  for (const width of [256, 320, 390])
    it(`${width} px: no element and nothing inside one is wider than the column`, async () => {
      const { root, elements, finish } = await allElements(width);
      const right = root.getBoundingClientRect().left + width;
      for (const el of elements) {
        expect(el.getBoundingClientRect().right, el.localName).to.be.at.most(right + 0.5);
        expect(pastEdge(el, right), `${el.localName}: past the right edge`).to.deep.equal([]);
      }
      await finish();
    });
});
