import { expect } from '@open-wc/testing';
import { expandTemplate, McpConfigError, templateParams } from '../../src/core/index.js';

describe('resource templates (RFC 6570)', () => {
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

  it('expands every operator and prefixes as RFC 6570 does for string values', () => {
    const v = { var: 'value', x: '1024', hello: 'Hello World!', path: '/foo/bar', half: '50%' };
    expect(expandTemplate('{var:3}|{hello}|{half}', v)).to.equal('val|Hello%20World%21|50%25');
    expect(expandTemplate('{+path}/here|{#hello}|{+half}', v)).to.equal('/foo/bar/here|#Hello%20World!|50%25');
    expect(expandTemplate('x{.var}{/var,x}{;x}{?x,var}{&hello}', v)).to.equal(
      'x.value/value/1024;x=1024?x=1024&var=value&hello=Hello%20World%21',
    );
    expect(expandTemplate('{+pct}', { pct: 'a%2Fb%zz' })).to.equal('a%2Fb%25zz');
    expect(expandTemplate('{undefined}{?undefined}x', {})).to.equal('x');
  });

  it('refuses unclosed expressions and invalid variable names with a typed error', () => {
    for (const bad of ['x://{a', 'x://{a b}', 'x://{}', 'x://{a:0}', 'x://{=a}']) {
      expect(() => expandTemplate(bad, { a: '1' }), bad).to.throw(McpConfigError);
      expect(templateParams(bad), bad).to.deep.equal([]);
    }
  });

  it('refuses a template with too many expressions with a typed error, and lists no variables for it', () => {
    const bad = 'x://' + '{a}'.repeat(100_000);
    expect(templateParams(bad)).to.deep.equal([]);
    expect(() => expandTemplate(bad, {})).to.throw(McpConfigError);
  });
});
