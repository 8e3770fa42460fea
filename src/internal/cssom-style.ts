// Inline positions set through CSSOM only. Lit's `styleMap` writes a `style` attribute on first
// render, which a Content-Security-Policy without 'unsafe-inline' styles blocks (rows then pile
// up at the top); `element.style.setProperty` is not subject to that policy.
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

class CssomStyle extends Directive {
  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('cssomStyle() goes in an element position');
  }
  render(_styles: Readonly<Record<string, string>>) {
    return noChange;
  }
  override update(part: ElementPart, [styles]: [Readonly<Record<string, string>>]) {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(styles))
      if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
    return noChange;
  }
}

/** `<div ${cssomStyle({ top: '12px' })}>`: set inline styles without a `style` attribute. */
export const cssomStyle = directive(CssomStyle);
