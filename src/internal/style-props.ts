// Inline styles that a Content-Security-Policy without 'unsafe-inline' allows: lit's styleMap
// writes a `style` attribute on first render, which `style-src-attr` blocks; this directive
// only ever sets properties through the CSSOM (`el.style.setProperty`), which CSP does not govern.
import { noChange, type ElementPart } from 'lit';
import { Directive, directive, PartType, type PartInfo } from 'lit/directive.js';

class StyleProps extends Directive {
  #previous = new Set<string>();
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('styleProps() goes on an element: <div ${styleProps({…})}>');
  }
  render(_props: Readonly<Record<string, string>>) {
    return noChange;
  }
  override update(part: ElementPart, [props]: [Readonly<Record<string, string>>]) {
    const { style } = part.element as HTMLElement;
    for (const name of this.#previous) if (!(name in props)) style.removeProperty(name);
    for (const [name, value] of Object.entries(props)) style.setProperty(name, value);
    this.#previous = new Set(Object.keys(props));
    return noChange;
  }
}

/** Set CSS properties (`{ top: '56px' }`) on an element through the CSSOM. */
export const styleProps = directive(StyleProps);
