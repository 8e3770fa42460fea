// The docs site (VitePress): docs/*.md as they are on GitHub, plus a live example on each element
// page. `npm run docs` (scripts/docs-serve.mjs) serves it on 127.0.0.1 next to the reference MCP
// server; nothing is fetched from beyond 127.0.0.1 (test/e2e/readme-docs-site.test.mjs checks).
import { defineConfig } from 'vitepress';
import { cpSync, createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cdnDir = path.join(root, 'dist/cdn');
const elements = [
  'mcp-server-manager',
  'mcp-tool-explorer',
  'gpt-tool-selector',
  'mcp-tool-call',
  'mcp-elicitation',
  'mcp-task-monitor',
  'mcp-app-view',
];

/**
 * The pages are written for GitHub, where a link may leave docs/. The site shows those files'
 * content on its own pages (`<!--@include: …-->`), so such a link leads to that page instead.
 * Any other link out of docs/ stays as written, and the build fails on it as a dead link.
 */
const repoLinks = {
  'README.md#put-an-element-on-your-page': 'index.md#put-an-element-on-your-page',
  'README.md#try-it-the-demo-and-the-tests': 'index.md#try-it-the-demo-and-the-tests',
  'examples/README.md': 'guides/deploy.md',
};

/**
 * Where a relative link of the page `page` (relative to docs/) leads in the site, or undefined to
 * keep it. A link from README content included in a page (`docs/guides/g4f.md`, written relative
 * to the repository's root) is read from the root: no page lives under docs/docs/.
 */
function siteLink(page, link) {
  if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(link)) return undefined;
  const [file, hash] = link.split('#');
  const fromRoot = file.startsWith('docs/') ? file : path.posix.join('docs', path.posix.dirname(page), file);
  const target = fromRoot.startsWith('docs/')
    ? fromRoot.slice('docs/'.length) + (hash === undefined ? '' : `#${hash}`)
    : (repoLinks[`${fromRoot}#${hash}`] ?? repoLinks[fromRoot]);
  if (!target || (!file.startsWith('docs/') && fromRoot.startsWith('docs/'))) return undefined;
  const [to, anchor] = target.split('#');
  const rel = path.posix.relative(path.posix.dirname(page), to) || path.posix.basename(to);
  return `${rel.startsWith('.') ? rel : `./${rel}`}${anchor === undefined ? '' : `#${anchor}`}`;
}

/** A heading's id as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const githubSlug = (text) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** HTML elements a page may use as HTML (GitHub renders these); any other tag in prose is text. */
const htmlTags = new Set(
  'a abbr b blockquote br code dd del details div dl dt em h1 h2 h3 h4 h5 h6 hr i img ins kbd li ol p picture pre q s samp source span strong sub summary sup table tbody td tfoot th thead tr tt ul var'.split(
    ' ',
  ),
);

/** The site runs the real CDN build (dist/cdn), served as /cdn/ in dev and copied into the build. */
const cdnFiles = {
  name: 'mcp-elements:docs-cdn',
  configureServer(server) {
    server.middlewares.use('/cdn/', (req, res, next) => {
      const file = path.join(cdnDir, decodeURIComponent((req.url ?? '/').split('?')[0]));
      if (!file.startsWith(cdnDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) return next();
      res.setHeader('content-type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
      createReadStream(file).pipe(res);
    });
  },
};

export default defineConfig({
  title: 'mcp-elements',
  description: 'Custom elements and a hub that give any chat web page real MCP tool support.',
  // the helpers' working notes are folded into ARCHITECTURE.md, not published
  srcExclude: ['notes/**'],
  // no dead link is ignored: one fails the build (test/e2e/readme-docs-site.test.mjs)
  lastUpdated: false,
  // build output and cache where the repository already keeps generated files (dist/ and
  // node_modules/ are ignored by git, ESLint and Prettier)
  outDir: '../dist/docs',
  cacheDir: '../node_modules/.vitepress-cache',
  markdown: {
    // heading ids as GitHub makes them, so an `#anchor` written for GitHub works in the site too
    anchor: { slugify: githubSlug },
    // The pages are plain markdown written for GitHub, but VitePress compiles each as a Vue
    // template: keep what is text as text, so a page written for GitHub always builds.
    config(md) {
      // links written for GitHub that leave docs/ (see repoLinks)
      md.core.ruler.push('mcp-elements-repo-links', (state) => {
        const page = state.env.relativePath;
        if (!page) return;
        const fix = (token, attr) => {
          const value = token.attrGet(attr);
          const next = value && siteLink(page, value);
          if (next) token.attrSet(attr, next);
        };
        for (const block of state.tokens)
          for (const token of block.children ?? []) {
            if (token.type === 'link_open') fix(token, 'href');
            if (token.type === 'image') fix(token, 'src');
          }
      });
      // inline code: `{{ v }}` in a code span must not be evaluated
      const inline = md.renderer.rules.code_inline;
      md.renderer.rules.code_inline = (tokens, i, options, env, self) =>
        inline(tokens, i, options, env, self).replace(/^<code/, '<code v-pre');
      // prose: a {{ would start an interpolation
      const text = md.renderer.rules.text;
      md.renderer.rules.text = (tokens, i, options, env, self) =>
        text(tokens, i, options, env, self).replace(/\{\{/g, '&#123;&#123;');
      // raw tags in prose (`Open <domain>`, a bare `<mcp-tool-call>`) are text, except HTML
      // elements GitHub renders too and the site's own <LiveExample>
      for (const rule of ['html_inline', 'html_block']) {
        const render = md.renderer.rules[rule];
        md.renderer.rules[rule] = (tokens, i, options, env, self) => {
          const html = render(tokens, i, options, env, self);
          const tag = /^\s*<\/?([A-Za-z][\w-]*)/.exec(html)?.[1];
          return !tag || tag === 'LiveExample' || htmlTags.has(tag.toLowerCase())
            ? html
            : html.replace(/&/g, '&amp;').replace(/</g, '&lt;');
        };
      }
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/guides/embed' },
      { text: 'Elements', link: '/elements/' },
      { text: 'API', link: '/API' },
      { text: 'Architecture', link: '/ARCHITECTURE' },
    ],
    sidebar: [
      {
        text: 'Guides',
        items: [
          { text: 'Put the elements on a page', link: '/guides/embed' },
          { text: 'Typed templates', link: '/guides/frameworks' },
          { text: 'G4F', link: '/guides/g4f' },
          { text: 'Theme', link: '/guides/theme' },
          { text: 'Sign-in', link: '/guides/sign-in' },
          { text: 'Tool loop with a provider', link: '/guides/tool-loop' },
          { text: 'The hub from code', link: '/guides/hub' },
          { text: 'Relay and backend hub', link: '/guides/relay-and-backend' },
          { text: 'MCP Apps', link: '/guides/mcp-apps' },
          { text: 'The demo and the tests', link: '/guides/demo-and-tests' },
        ],
      },
      {
        text: 'Elements',
        items: [
          { text: 'All elements, global tokens', link: '/elements/' },
          // sidebar text is HTML: the tag name must be text, not an element
          ...elements.map((tag) => ({ text: `&lt;${tag}&gt;`, link: `/elements/${tag}` })),
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'API', link: '/API' },
          { text: 'Provider formats', link: '/PROVIDERS' },
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Architecture', link: '/ARCHITECTURE' },
          { text: 'Decisions', link: '/decisions/README' },
          { text: 'Measurement reports', link: '/bench/README' },
        ],
      },
    ],
    outline: [2, 3],
  },
  vue: {
    template: {
      compilerOptions: { isCustomElement: (tag) => tag.startsWith('mcp-') || tag === 'gpt-tool-selector' },
    },
  },
  vite: {
    // the servers the live examples use (scripts/docs-peers.mjs; `npm run docs` or the test sets it)
    define: { __MCP_DOCS_PEERS__: JSON.stringify(JSON.parse(process.env.MCP_DOCS_PEERS || '{}')) },
    server: { host: '127.0.0.1', strictPort: false },
    preview: { host: '127.0.0.1' },
    plugins: [cdnFiles],
  },
  buildEnd(site) {
    if (!existsSync(cdnDir)) throw new Error('dist/cdn is missing: run npm run build first');
    cpSync(cdnDir, path.join(site.outDir, 'cdn'), { recursive: true });
  },
});
