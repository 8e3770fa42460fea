// Browser tests: one real engine per run (WTR_ENGINE = chromium | firefox | webkit, from Debian's
// packages: scripts/engines.mjs), real MCP servers on 127.0.0.1 started by scripts/test.mjs
// (their URLs arrive in MCP_TEST_SERVERS). WebKit needs WebKitWebDriver already listening on
// 127.0.0.1:WTR_WEBDRIVER_PORT (scripts/test.mjs starts it under xvfb-run).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CHROMIUM_ARGS, chromePath } from './scripts/chromium.mjs';
import { firefoxPath, miniBrowserPath } from './scripts/engines.mjs';

const commonjs = fromRollup(rollupCommonjs);
// WTR_BUILD=cdn: the element tests run against the built CDN files (dist/cdn) instead of the
// sources: see cdnModules() below
const againstCdn = process.env.WTR_BUILD === 'cdn';
const servers = process.env.MCP_TEST_SERVERS ?? '{}';
const engine = process.env.WTR_ENGINE || 'chromium';
// The colour scheme the engine itself runs in. Firefox and WebKit cannot switch it at run time,
// so scripts/test.mjs runs test/elements/theme.test.ts once more with WTR_COLOR_SCHEME=dark
// there: Firefox through its prefs, WebKitGTK's MiniBrowser through --dark-mode (GTK's dark
// theme). Chromium switches it per test over CDP (emulateMedia) and ignores this.
const scheme = process.env.WTR_COLOR_SCHEME === 'dark' ? 'dark' : 'light';

/**
 * puppeteer-core 24's setViewport also sends BiDi `emulation.setScreenOrientationOverride`, which
 * Firefox ESR 140.12 (Debian, 2026-11) answers "unknown command": every test file then failed
 * before it ran. The size is set by the command sent beside it, so only that answer is tolerated.
 */
function tolerateOrientation(page) {
  const setViewport = page.setViewport.bind(page);
  page.setViewport = (viewport) =>
    setViewport(viewport).catch((e) => {
      if (!/setScreenOrientationOverride/.test(String(e?.message))) throw e;
    });
  return page;
}

function launcher() {
  if (engine === 'firefox')
    // puppeteer-core over WebDriver BiDi; passing puppeteer-core as the "custom puppeteer" makes
    // the launcher name the browser Firefox (this is all @web/test-runner-puppeteer 0.18 does)
    return chromeLauncher({
      puppeteer: puppeteerCore,
      launchOptions: {
        browser: 'firefox',
        executablePath: firefoxPath,
        headless: true,
        // the page's prefers-color-scheme: 0 dark, 1 light (2 would follow the headless system)
        extraPrefsFirefox: {
          'layout.css.prefers-color-scheme.content-override': scheme === 'dark' ? 0 : 1,
          'ui.systemUsesDarkTheme': scheme === 'dark' ? 1 : 0,
        },
      },
      createPage: ({ context }) => context.newPage().then(tolerateOrientation),
    });
  if (engine === 'webkit')
    return webdriverLauncher({
      // an already started WebKitWebDriver: with hostname and port given, webdriverio starts
      // and downloads no driver of its own
      hostname: '127.0.0.1',
      port: Number(process.env.WTR_WEBDRIVER_PORT),
      path: '/',
      logLevel: 'error',
      capabilities: {
        browserName: 'MiniBrowser',
        // classic W3C WebDriver: webdriverio would otherwise ask for a BiDi socket
        // (webSocketUrl), which WebKitWebDriver refuses ("Failed to match capabilities")
        'wdio:enforceWebDriverClassic': true,
        // window.open without a click: the cross-tab tests open real tabs (Chromium and Firefox
        // under automation allow it already)
        'webkitgtk:browserOptions': {
          binary: miniBrowserPath,
          args: [
            '--automation',
            '--javascript-can-open-windows-automatically=true',
            ...(scheme === 'dark' ? ['--dark-mode'] : []),
          ],
        },
      },
    });
  return chromeLauncher({ launchOptions: { executablePath: chromePath, headless: true, args: CHROMIUM_ARGS } });
}

/** Count every test's outcome so the runner can print `N passed, N failed`. */
function countingReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      let passed = 0,
        failed = 0;
      const skipped = [];
      const walk = (suite) => {
        for (const t of suite?.tests ?? []) {
          if (t.skipped) {
            skipped.push(t.name);
            continue;
          }
          if (t.passed) passed++;
          else failed++;
        }
        for (const s of suite?.suites ?? []) walk(s);
      };
      for (const s of sessions) {
        walk(s.testResults);
        // a file that failed to load counts as one failure
        if (!s.passed && (s.errors?.length ?? 0) > 0) failed++;
      }
      if (file) writeFileSync(file, JSON.stringify({ passed, failed, skipped }));
    },
  };
}

/**
 * With WTR_BUILD=cdn, the source modules tests import are served as the built CDN files: the
 * package entries (`src/index.ts`, `src/core/index.ts`) as the CDN entry, which loads every
 * element through its autoloader (the tags appear in the document, as on a host page), and any
 * module that became a chunk of its own (`dist/cdn/manifest.json`) as that chunk.
 */
function cdnModules() {
  const manifestUrl = new URL('./dist/cdn/manifest.json', import.meta.url);
  let manifest;
  const chunkOf = (path) => {
    manifest ??= JSON.parse(readFileSync(manifestUrl, 'utf8'));
    return manifest.modules[path.replace(/^\//, '').replace(/\.js$/, '.ts')];
  };
  return {
    name: 'mcp-test-cdn-build',
    serve(context) {
      const p = context.path.replace(/\.js$/, '.ts');
      if (p === '/src/core/index.ts') return { body: `export * from '/dist/cdn/mcp-elements.js';`, type: 'js' };
      if (p === '/src/index.ts')
        return {
          body: `export * from '/dist/cdn/mcp-elements.js';
import { AUTOLOADED_TAGS } from '/dist/cdn/mcp-elements.js';
// every tag appears once, as on a host page: the autoloader imports each element's chunk
const holder = document.createElement('div');
holder.hidden = true;
for (const tag of AUTOLOADED_TAGS) holder.append(document.createElement(tag));
document.body.append(holder);
await Promise.all(AUTOLOADED_TAGS.map((tag) => customElements.whenDefined(tag)));
holder.remove();`,
          type: 'js',
        };
      const chunk = p.startsWith('/src/') && chunkOf(p);
      if (chunk) return { body: `export * from '/dist/cdn/${chunk}';`, type: 'js' };
    },
  };
}

/**
 * `executeServerCommand('save-screenshot', { name, selector? })`: an element (or the page) as the
 * engine draws it, saved to test-results/screens/<engine>/<name>.png to be looked at (Firefox and WebKit too, where the e2e
 * harness, Chromium-only, cannot go). Returns the file's path.
 */
function screenshotCommand() {
  return {
    name: 'mcp-screenshot',
    async executeCommand({ command, payload, session }) {
      if (command !== 'save-screenshot') return undefined;
      const name = String(payload?.name ?? '');
      if (!/^[\w-]+$/.test(name)) throw new Error(`save-screenshot: bad name ${JSON.stringify(name)}`);
      const dir = `test-results/screens/${engine}${scheme === 'dark' ? '-dark' : ''}`;
      mkdirSync(dir, { recursive: true });
      const file = `${dir}/${name}.png`;
      // the element `selector` names (light DOM), else the whole page
      const selector = JSON.stringify(String(payload?.selector ?? 'body'));
      const browser = session.browser;
      // WebKitGTK's element screenshot draws black outside the first viewport: the viewport there
      if (browser.type === 'webdriver')
        writeFileSync(file, Buffer.from(await browser.driver.takeScreenshot(), 'base64'));
      else await (await browser.getPage(session.id).$(JSON.parse(selector))).screenshot({ path: file });
      return file;
    },
  };
}

/** A page that runs one module under a strict Content-Security-Policy (plus `extra` directives). */
function strictPage(module, extra = '') {
  return {
    body: `<!doctype html><meta charset="utf-8"><title>strict</title><script type="module" src="${module}"></script>`,
    type: 'html',
    headers: {
      'content-security-policy': `default-src 'self'; script-src 'self'; connect-src 'self' http://127.0.0.1:*; style-src 'self'${extra}`,
    },
  };
}

export default {
  files: process.env.WTR_FILES
    ? process.env.WTR_FILES.split(',')
    : againstCdn
      ? ['test/elements/**/*.test.ts']
      : ['test/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'import', 'default'] },
  hostname: '127.0.0.2',
  port: Number(process.env.WTR_PORT) || 8765,
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 600000,
  browserStartTimeout: 60000,
  testFramework: { config: { timeout: 30000 } },
  browsers: [launcher()],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter(process.env.WTR_COUNTS_FILE)],
  plugins: [
    ...(againstCdn ? [cdnModules()] : []),
    screenshotCommand(),
    {
      name: 'mcp-test-support',
      serve(context) {
        // msw's worker, at the scope root, for the tests that fake an LLM provider's API
        if (context.path === '/mockServiceWorker.js')
          return {
            body: readFileSync(new URL('./node_modules/msw/lib/mockServiceWorker.js', import.meta.url), 'utf8'),
            type: 'js',
          };
        if (context.path === '/__servers.js') return { body: `export default ${servers};`, type: 'js' };
        if (context.path === '/__engine.js') return { body: `export default ${JSON.stringify(engine)};`, type: 'js' };
        if (context.path === '/__scheme.js') return { body: `export default ${JSON.stringify(scheme)};`, type: 'js' };
        // The OAuth redirect page of the sign-in tests (test/core/oauth.test.ts): hands the
        // authorization response back to the test page, as a host's redirect page would
        if (context.path === '/__oauth-callback.html')
          return {
            body: `<!doctype html><meta charset="utf-8"><title>signing in</title><p id="status">…</p><script type="module">import { completeSignIn } from '/src/core/auth/callback.ts'; const r = await completeSignIn(); document.getElementById('status').textContent = r.status;</script>`,
            type: 'html',
          };
        if (context.path === '/__build.js')
          return { body: `export default ${JSON.stringify(againstCdn ? 'cdn' : 'source')};`, type: 'js' };
        // The CDN directory as a CDN would serve it, under an arbitrary path (test/cdn/autoload.test.ts)
        const copy = /^\/__cdn-copy\/(?:[\w.-]+\/)*?cdn\/((?:chunks\/)?[\w.-]+\.js)$/.exec(context.path);
        if (copy) return { body: readFileSync(new URL(`./dist/cdn/${copy[1]}`, import.meta.url), 'utf8'), type: 'js' };
        // A page loading one CDN build from such a path, under the strict CSP below
        if (context.path === '/__cdn.html') {
          const entry = context.URL.searchParams.get('entry') === 'all' ? 'mcp-elements.all.js' : 'mcp-elements.js';
          return {
            body:
              `<!doctype html><meta charset="utf-8"><title>cdn</title>` +
              `<script src="/test/cdn/violations.js"></script>` +
              `<script type="module" src="/__cdn-copy/some/where/v9.9.9/cdn/${entry}"></script>` +
              // tags already in the markup when the entry runs (?tags=a,b)
              (context.URL.searchParams.get('tags') ?? '')
                .split(',')
                .filter((t) => /^[a-z]+(-[a-z]+)+$/.test(t))
                .map((t) => `<div><${t}></${t}></div>`)
                .join(''),
            type: 'html',
            headers: {
              'content-security-policy':
                "default-src 'self'; script-src 'self'; connect-src 'self' http://127.0.0.1:*; style-src 'self'",
            },
          };
        }
        // The hostile-string pages (test/elements/hostile.test.ts): the sources under the same
        // strict policy, no inline script or style, no eval; images and audio from `data:` only
        // (the elements show a result's raster images and audio as data: URLs, nothing remote)
        if (context.path === '/__hostile.html')
          return strictPage('/test/elements/hostile-page.ts', '; img-src data:; media-src data:');
        // A page with a strict CSP (no 'unsafe-eval'): see test/core/csp.test.ts
        if (context.path === '/__csp.html') return strictPage('/test/core/csp-page.js');
        // the same policy, where a probe tries eval and new Function (test/core/csp.test.ts)
        if (context.path === '/__csp-eval.html') return strictPage('/test/core/csp-eval-probe.js');
      },
    },
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    commonjs({ include: ['**/node_modules/content-type/**'] }),
  ],
};
