// A link checker for the built docs site (dist/docs), with no ignore list: every link and
// resource a page names on the site itself (href, src) must be a file of the build, and every
// `#anchor` must be an id on the page it names. Links off the site (http:, mailto:…) are not
// followed: the site is checked offline.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every .html file under `dir`, as paths relative to it. */
function pages(dir, sub = '') {
  return readdirSync(path.join(dir, sub)).flatMap((name) => {
    const rel = path.posix.join(sub, name);
    if (statSync(path.join(dir, rel)).isDirectory()) return pages(dir, rel);
    return name.endsWith('.html') ? [rel] : [];
  });
}

const decode = (s) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** The ids of a built page (what an `#anchor` may name). */
const idsOf = (html) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1])));

/**
 * The dead links of the built site in `dir`: `[{ page, link, why }]`, empty when every link on the
 * site leads to a file of the build and every anchor to an id of its page.
 */
export function deadLinks(dir) {
  const dead = [];
  const html = new Map(pages(dir).map((p) => [p, readFileSync(path.join(dir, p), 'utf8')]));
  const ids = new Map();
  for (const [page, text] of html) {
    for (const m of text.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const link = decode(m[1]);
      // off the site (a scheme or //host), or a template placeholder: not followed
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(link)) continue;
      const url = new URL(link, `http://site/${page}`);
      let file = decodeURIComponent(url.pathname).slice(1);
      if (file === '' || file.endsWith('/')) file += 'index.html';
      if (!existsSync(path.join(dir, file)) || statSync(path.join(dir, file)).isDirectory()) {
        dead.push({ page, link, why: `no file ${file} in the build` });
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (!anchor || !html.has(file)) continue;
      if (!ids.has(file)) ids.set(file, idsOf(html.get(file)));
      if (!ids.get(file).has(anchor)) dead.push({ page, link, why: `no id "${anchor}" on ${file}` });
    }
  }
  return dead;
}
