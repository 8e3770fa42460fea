import { expect } from '@open-wc/testing';
import { expandTemplate, McpConfigError, templateParams } from '../../src/core/index.js';

describe('resource templates (RFC 6570 through the SDK)', () => {
  it('expands form-style queries with their names, which level-1 expansion lost', () => {
    expect(expandTemplate('test://search{?q,lang}', { q: 'a b', lang: 'en' })).to.equal(
      'test://search?q=a%20b&lang=en',
    );
    expect(templateParams('test://search{?q,lang}')).to.deep.equal(['q', 'lang']);
  });

  it('leaves out empty variables and keeps reserved characters only for {+var}', () => {
    expect(expandTemplate('test://search{?q,lang}', { q: '', lang: 'en' })).to.equal('test://search?lang=en');
    expect(expandTemplate('file:///{+path}', { path: 'a/b c' })).to.equal('file:///a/b%20c');
    expect(expandTemplate('test://static/resource/{id}', { id: 'a/b' })).to.equal('test://static/resource/a%2Fb');
  });

  it('names each variable once, without operators or modifiers', () => {
    expect(templateParams('x://{/path*}{?q}{&page}')).to.deep.equal(['path', 'q', 'page']);
    expect(templateParams('x://{id}/{id}')).to.deep.equal(['id']);
  });

  it('refuses a template the SDK cannot parse with a typed error, and lists no variables for it', () => {
    const bad = 'x://' + '{a}'.repeat(100_000);
    expect(templateParams(bad)).to.deep.equal([]);
    expect(() => expandTemplate(bad, {})).to.throw(McpConfigError);
  });
});
