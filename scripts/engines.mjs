// The three browser engines the suite runs in, all from Debian packages (TOOLCHAIN.md), none
// downloaded: Chromium (CDP) and Firefox ESR (WebDriver BiDi) through puppeteer-core, WebKitGTK's
// MiniBrowser through WebKitWebDriver (W3C WebDriver) under Xvfb.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { chromePath } from './chromium.mjs';

export const firefoxPath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const miniBrowserPath = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** Every engine: its name, whether it is installed here, and what is missing when not. */
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
    { name: 'chromium', label: 'Chromium', missing: existsSync(chromePath) ? [] : ['chromium'] },
    { name: 'firefox', label: 'Firefox', missing: existsSync(firefoxPath) ? [] : ['firefox-esr'] },
    { name: 'webkit', label: 'WebKit', missing: [...new Set(webkitMissing)] },
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
