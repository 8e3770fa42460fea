// The three browser engines the suite runs in, all from Debian packages (TOOLCHAIN.md), none
// downloaded: Chromium (CDP) and Firefox ESR (WebDriver BiDi) through puppeteer-core, WebKitGTK's
// MiniBrowser through WebKitWebDriver (W3C WebDriver) under Xvfb.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { chromePath } from './chromium.mjs';

export const firefoxPath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
/**
 * WebKitGTK's MiniBrowser: MINIBROWSER_PATH, else where Debian puts it for this machine's
 * architecture (/usr/lib/<multiarch>/webkit2gtk-4.1/, e.g. x86_64-linux-gnu or aarch64-linux-gnu)
 * or where Fedora does (/usr/libexec/webkit2gtk-4.1/).
 */
export const miniBrowserPath = process.env.MINIBROWSER_PATH || findMiniBrowser();

function findMiniBrowser() {
  const lib = '/usr/lib';
  const multiarch = existsSync(lib)
    ? readdirSync(lib)
        .filter((d) => /-linux-gnu/.test(d))
        .map((d) => `${lib}/${d}/webkit2gtk-4.1/MiniBrowser`)
    : [];
  const candidates = [...multiarch, '/usr/libexec/webkit2gtk-4.1/MiniBrowser'];
  return (
    candidates.find((p) => existsSync(p)) ?? candidates[0] ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'
  );
}

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** Every engine: its name, whether it is installed here, what is missing when not, and the variables that point to it. */
export function engines() {
  const webkitMissing = [
    [webkitDriverPath, 'webkit2gtk-driver'],
    [miniBrowserPath, 'webkit2gtk-driver'],
  ]
    .filter(([p]) => !existsSync(p))
    .map(([, pkg]) => pkg);
  if (!onPath('xvfb-run')) webkitMissing.push('xvfb');
  if (!onPath('xauth')) webkitMissing.push('xauth');
  return [
    {
      name: 'chromium',
      label: 'Chromium',
      missing: existsSync(chromePath) ? [] : ['chromium'],
      pathVars: 'CHROME_PATH (the chromium binary)',
    },
    {
      name: 'firefox',
      label: 'Firefox',
      missing: existsSync(firefoxPath) ? [] : ['firefox-esr'],
      pathVars: 'FIREFOX_PATH (the firefox binary)',
    },
    {
      name: 'webkit',
      label: 'WebKit',
      missing: [...new Set(webkitMissing)],
      pathVars: 'WEBKIT_DRIVER_PATH (WebKitWebDriver) and MINIBROWSER_PATH (MiniBrowser)',
    },
  ];
}

/** The browser's own version string (`Mozilla Firefox 140.5.0esr`, `Chromium 142…`, `WebKitGTK 2.50.1`). */
export function engineVersion(name) {
  const run = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8' }).stdout?.trim() ?? '';
  if (name === 'chromium') return run(chromePath, ['--version']).replace(/^.*?(Chromium [\d.]+).*$/s, '$1');
  if (name === 'firefox') return run(firefoxPath, ['--version']);
  if (name === 'webkit') {
    const v = run('sh', ['-c', "dpkg-query -W -f='${Version}' 'libwebkit2gtk-4.1-0' 2>/dev/null"]);
    return v ? `WebKitGTK ${v.replace(/-.*$/, '')}` : 'WebKitGTK';
  }
  return '';
}

function waitForPort(port, child, ms = 20000) {
  const until = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const probe = () => {
      if (child.exitCode !== null) return reject(new Error(`WebKitWebDriver exited with ${child.exitCode}`));
      const c = net.connect({ port, host: '127.0.0.1' }, () => {
        c.end();
        resolve();
      });
      c.on('error', () =>
        Date.now() > until ? reject(new Error('WebKitWebDriver did not start')) : setTimeout(probe, 100),
      );
    };
    probe();
  });
}

/**
 * Start WebKitWebDriver on 127.0.0.1:`port` inside its own Xvfb display (`xvfb-run -a`): the
 * MiniBrowser it launches inherits the display. Returns `close()`, which ends the whole group.
 */
export async function startWebKitDriver(port) {
  const child = spawn('xvfb-run', ['-a', webkitDriverPath, `--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group, so close() reaches Xvfb and the browser too
  });
  let log = '';
  child.stderr.on('data', (d) => (log = (log + d).slice(-4000)));
  try {
    await waitForPort(port, child);
  } catch (e) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    throw new Error(`${e.message}\n${log}`, { cause: e });
  }
  return {
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          resolve();
        }
      }),
  };
}
