// Inline layout values (a virtual list's heights and offsets) under a strict CSP: a `style`
// attribute is an inline style that `style-src` without 'unsafe-inline' blocks — lit's styleMap
// too, whose first render writes the attribute — while properties set through the CSSOM are not.
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

class CssPropsDirective extends Directive {
  #previous = new Set<string>();
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('cssProps() goes on an element: <div ${cssProps({...})}>');
  }
  render(_props: Record<string, string>) {
    return noChange;
  }
  override update(part: ElementPart, [props]: [Record<string, string>]) {
    const style = (part.element as HTMLElement).style;
    for (const name of this.#previous) if (!(name in props)) style.removeProperty(name);
    for (const [name, value] of Object.entries(props)) style.setProperty(name, value);
    this.#previous = new Set(Object.keys(props));
    return noChange;
  }
}

/** Set CSS properties on an element through the CSSOM (never a `style` attribute). */
export const cssProps = directive(CssPropsDirective);
