// `node bench/bundle-map.mjs`: where the bytes of the CDN file go, next to the bare v2 SDK client.
// Builds both exactly as the real builds do (vite.config.ts `--mode cdn`, bench/run.mjs's
// baseline), with hidden sourcemaps, then attributes every byte of the minified output to the
// source the map points at. SDK chunks ship their own sourcemaps, so bytes in them are traced one
// step further, to the SDK's own modules (core-internal/src/…, src/client/…).
//
// gzip does not distribute over parts, so for every group it reports:
//   gz alone   — the group's mapped text gzipped on its own (overstates: no shared dictionary)
//   gz share   — gz alone scaled so that the column sums to the whole file's gzip
//   gz removed — whole-file gzip minus gzip of the file with the group's bytes cut out (what
//                dropping the group would save, roughly; the code that calls it stays)
// Writes bench/.build/map/{mcp-elements.js,sdk-bare.js}(.map) and report.json.
import { build } from 'vite';
import { gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceMap, decodedMappings, originalPositionFor } from '@jridgewell/trace-mapping';
import { singleFileBuild } from '../scripts/vite-plugins.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = 'bench/.build/map';
const sdkShim = path.join(root, 'src/core/session/sdk-shims.ts');
/** modules smaller than this (min bytes) get no "gz removed" figure: too noisy to mean anything */
const MARGINAL_MIN = 400;

const builds = [
  // vite.config.ts, mode 'cdn' as one file: `singleFileBuild(...)` with the SDK shim alias
  { key: 'cdn', mode: 'cdn', entry: 'src/cdn.ts', fileName: 'mcp-elements.js', real: 'dist/cdn/mcp-elements.js' },
  // bench/run.mjs's baseline: configFile false, default mode
  {
    key: 'bare',
    mode: 'production',
    entry: 'bench/sdk-bare.ts',
    fileName: 'sdk-bare.js',
    real: 'bench/.build/sdk-bare.js',
  },
];

// Named sets of modules: what cutting each from the file would save (the callers stay, so this
// is an upper bound on what stubbing the set saves).
const SETS = [
  [
    'OAuth client: client auth.ts, authErrors, authSeam, dpop, core auth.ts schemas, auth errors, pkce-challenge',
    (m) =>
      /^client\/src\/client\/(auth|authErrors|authSeam|dpop)\.ts$|^core\/src\/auth\.ts$|^core-internal\/src\/(auth\/errors|shared\/authUtils)\.ts$/.test(
        m,
      ) || m.startsWith('node_modules/pkce-challenge/'),
  ],
  [
    '@cfworker/json-schema, the copy inlined in the SDK (validators/cf-worker, _shims)',
    (m) => /^@cfworker\/json-schema \(copy inside/.test(m),
  ],
  ['@cfworker/json-schema, our own import', (m) => m.startsWith('node_modules/@cfworker/json-schema/')],
  ['spec-type table: core-internal specTypeSchema.ts', (m) => m === 'core-internal/src/types/specTypeSchema.ts'],
  [
    'response cache: client responseCache.ts + resultCacheHints.ts',
    (m) => /\/(responseCache|resultCacheHints)\.ts$/.test(m),
  ],
  [
    'legacy HTTP+SSE: client sse.ts + eventsource',
    (m) => m === 'client/src/client/sse.ts' || m.startsWith('node_modules/eventsource/'),
  ],
  [
    '2025-11-25 wire revision: core-internal wire/rev2025-11-25/*',
    (m) => m.startsWith('core-internal/src/wire/rev2025-11-25/'),
  ],
  [
    '2026-07-28 wire revision: core-internal wire/rev2026-07-28/*',
    (m) => m.startsWith('core-internal/src/wire/rev2026-07-28/'),
  ],
  [
    'zod JSON Schema output: to-json-schema.js + json-schema-processors.js',
    (m) => /zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/.test(m),
  ],
  ['RFC 6570: core-internal uriTemplate.ts', (m) => m === 'core-internal/src/shared/uriTemplate.ts'],
  [
    'lit (lit, lit-html, lit-element, @lit/reactive-element)',
    (m) => /node_modules\/(lit|lit-html|lit-element|@lit\/reactive-element)\//.test(m),
  ],
  ['our code: src/**', (m) => m.startsWith('src/')],
];

const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(1);
const rel = (p) => path.relative(root, p).split(path.sep).join('/');

/** `node_modules/@scope/name/rest` → ['@scope/name', 'rest'] */
function splitPackage(p) {
  const i = p.lastIndexOf('node_modules/');
  const parts = p.slice(i + 'node_modules/'.length).split('/');
  const n = parts[0].startsWith('@') ? 2 : 1;
  return [parts.slice(0, n).join('/'), parts.slice(n).join('/')];
}

const LIT = new Set(['lit', 'lit-html', 'lit-element', '@lit/reactive-element']);

/** level 1: a package, an SDK dist chunk, or one of our folders */
function groupOf(file) {
  if (file === null) return '(unmapped)';
  if (file.includes('node_modules/')) {
    const [pkg, rest] = splitPackage(file);
    if (pkg.startsWith('@modelcontextprotocol/')) return `${pkg} ${rest}`;
    if (LIT.has(pkg)) return 'lit';
    return pkg;
  }
  if (file.startsWith('src/core/')) {
    const parts = file.split('/');
    return parts.length > 3 ? parts.slice(0, 3).join('/') : 'src/core/*.ts';
  }
  if (file.startsWith('src/elements/')) return file.split('/').slice(0, 3).join('/');
  if (file.startsWith('src/')) {
    const parts = file.split('/');
    return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
  }
  return file;
}

/** the package a group belongs to (for the per-package summary) */
function packageOf(group) {
  if (group.startsWith('@modelcontextprotocol/')) return group.split(' ')[0];
  if (group.startsWith('src/')) return 'ours (src/)';
  return group;
}

// SDK dist files ship .mjs.map next to them: trace one step further
const sdkMaps = new Map();
function sdkMap(abs) {
  if (!sdkMaps.has(abs)) {
    const m = abs + '.map';
    sdkMaps.set(abs, existsSync(m) ? new TraceMap(readFileSync(m, 'utf8')) : null);
  }
  return sdkMaps.get(abs);
}
/** an SDK module's name as its repository calls it: core-internal/src/…, client/src/…, or a bundled package */
function sdkModuleName(pkg, source) {
  if (source.includes('node_modules/')) {
    const [inner, rest] = splitPackage(source);
    return `${inner} (copy inside ${pkg.split('/')[1]}) ${rest.replace(/^dist\/(esm\/)?/, '')}`;
  }
  const clean = source.replace(/^(\.\.\/)+/, '');
  return clean.startsWith('src/') ? `${pkg.split('/')[1]}/${clean}` : clean;
}

/** every byte of `code` → { group, file, module }, as runs of text */
function attribute(code, mapText, mapDir) {
  const tm = new TraceMap(mapText);
  const lines = decodedMappings(tm);
  const files = tm.sources.map((s) => (s.startsWith('\0') ? null : rel(path.resolve(mapDir, tm.sourceRoot ?? '', s))));
  const keyCache = new Map();
  const keyOf = (seg) => {
    if (!seg || seg.length < 4) return { group: '(unmapped)', file: '(unmapped)', module: '(unmapped)' };
    const file = files[seg[1]];
    const group = groupOf(file);
    let module = file ?? '(bundler runtime)';
    if (file?.includes('node_modules/@modelcontextprotocol/')) {
      const inner = sdkMap(path.join(root, file));
      const [pkg] = splitPackage(file);
      if (inner) {
        const o = originalPositionFor(inner, { line: seg[2] + 1, column: seg[3] });
        module = o.source ? sdkModuleName(pkg, o.source) : `${group} (unmapped in SDK map)`;
      } else module = `${group} (no SDK map)`;
    }
    const k = `${group}\0${file}\0${module}`;
    if (!keyCache.has(k)) keyCache.set(k, { group, file: file ?? '(bundler runtime)', module });
    return keyCache.get(k);
  };
  const runs = [];
  const push = (text, key) => {
    if (!text) return;
    const last = runs[runs.length - 1];
    if (last && last.key === key) last.text += text;
    else runs.push({ text, key });
  };
  const codeLines = code.split('\n');
  // a segment runs to the next one, across line ends: the minifier keeps multi-line template
  // literals (lit's html/css, zod's messages) and maps only where they start
  let cur = keyOf(null);
  codeLines.forEach((line, i) => {
    const text = i < codeLines.length - 1 ? line + '\n' : line;
    let at = 0;
    for (const seg of lines[i] ?? []) {
      if (seg[0] < at) continue;
      push(text.slice(at, seg[0]), cur);
      at = seg[0];
      cur = keyOf(seg);
    }
    push(text.slice(at), cur);
  });
  return runs;
}

/** min bytes, gz alone, gz share and gz removed for each value of runs[].key[level] */
function measure(runs, level, wholeGz) {
  const parts = new Map();
  for (const r of runs) {
    const name = r.key[level];
    if (!parts.has(name)) parts.set(name, []);
    parts.get(name).push(r.text);
  }
  const rows = [...parts].map(([name, texts]) => {
    const text = texts.join('');
    return { name, min: Buffer.byteLength(text), gzAlone: gz(text) };
  });
  const sumAlone = rows.reduce((a, r) => a + r.gzAlone, 0);
  for (const r of rows) {
    r.gzShare = (r.gzAlone * wholeGz) / sumAlone;
    if (r.min >= MARGINAL_MIN)
      r.gzRemoved =
        wholeGz -
        gz(
          runs
            .filter((x) => x.key[level] !== r.name)
            .map((x) => x.text)
            .join(''),
        );
  }
  return rows.sort((a, b) => b.min - a.min);
}

const fmtRemoved = (r) => (r?.gzRemoved === undefined ? '—' : kb(r.gzRemoved));
function table(title, rows, total) {
  console.log(`\n### ${title}\n`);
  console.log('| group | min KB | % min | gz alone KB | gz share KB | gz removed KB |\n|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${kb(r.min)} | ${((100 * r.min) / total.min).toFixed(1)} | ${kb(r.gzAlone)} | ${kb(r.gzShare)} | ${fmtRemoved(r)} |`,
    );
  console.log(`| **whole file** | ${kb(total.min)} | 100 | — | ${kb(total.gz)} | — |`);
}

const results = {};
for (const [i, b] of builds.entries()) {
  const options = singleFileBuild({ entry: b.entry, outDir, fileName: b.fileName, emptyOutDir: i === 0 });
  // hidden: no sourceMappingURL comment, so the JS is byte for byte what the real build ships
  options.sourcemap = 'hidden';
  // the CDN builds resolve the SDK's platform shim to ours (vite.config.ts): one cfworker copy
  const resolve =
    b.key === 'cdn' ? { alias: [{ find: /^@modelcontextprotocol\/client\/_shims$/, replacement: sdkShim }] } : {};
  await build({ configFile: false, root, mode: b.mode, logLevel: 'warn', resolve, build: options });
  const file = path.join(root, outDir, b.fileName);
  const code = readFileSync(file, 'utf8');
  const runs = attribute(code, readFileSync(file + '.map', 'utf8'), path.dirname(file));
  const total = { min: Buffer.byteLength(code), gz: gz(code) };
  const sumMin = runs.reduce((a, r) => a + Buffer.byteLength(r.text), 0);
  if (sumMin !== total.min) throw new Error(`${b.key}: attributed ${sumMin} bytes of ${total.min}`);
  for (const r of runs) r.key = { ...r.key, pkg: packageOf(r.key.group) };
  results[b.key] = {
    ...b,
    total,
    real: existsSync(path.join(root, b.real))
      ? { file: b.real, identical: readFileSync(path.join(root, b.real), 'utf8') === code, ...sizes(b.real) }
      : null,
    byPackage: measure(runs, 'pkg', total.gz),
    byGroup: measure(runs, 'group', total.gz),
    byModule: measure(runs, 'module', total.gz),
    sets: SETS.map(([name, test]) => {
      const out = runs.filter((x) => test(x.key.module));
      const kept = runs.filter((x) => !test(x.key.module));
      const min = out.reduce((a, x) => a + Buffer.byteLength(x.text), 0);
      return { name, min, gzRemoved: min ? total.gz - gz(kept.map((x) => x.text).join('')) : 0 };
    }),
  };
}

function sizes(f) {
  const t = readFileSync(path.join(root, f), 'utf8');
  return { min: Buffer.byteLength(t), gz: gz(t) };
}

const { cdn, bare } = results;
console.log('## Bundle map (min = minified bytes; gz = gzip -9; KB = 1024 bytes)\n');
for (const r of [cdn, bare]) {
  const alone = r.byGroup.reduce((a, x) => a + x.gzAlone, 0);
  const real = !r.real
    ? `${r.real?.file ?? 'real build'} not found`
    : r.real.identical
      ? `identical to ${r.real.file}`
      : `differs from ${r.real.file} (${kb(r.real.min)} KB min, ${kb(r.real.gz)} KB gz: stale build, or src/ changed since)`;
  console.log(
    `- ${r.key}: ${r.entry} → ${outDir}/${r.fileName}: ${kb(r.total.min)} KB min, ${kb(r.total.gz)} KB gz; ` +
      `attributed min bytes sum to the file exactly; groups gzipped alone sum to ${kb(alone)} KB ` +
      `(${((100 * alone) / r.total.gz).toFixed(0)}% of the whole-file gzip); ${real}`,
  );
}
console.log(`- ratio cdn/bare (gz): ${(cdn.total.gz / bare.total.gz).toFixed(2)}`);

table('CDN file by package', cdn.byPackage, cdn.total);
table('bare SDK client by package', bare.byPackage, bare.total);
table('CDN file by group (SDK by dist chunk, our code by folder)', cdn.byGroup, cdn.total);
table('bare SDK client by group', bare.byGroup, bare.total);

function diff(level, filter) {
  const a = new Map(cdn[level].map((r) => [r.name, r]));
  const b = new Map(bare[level].map((r) => [r.name, r]));
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter(filter)
    .map((name) => {
      const x = a.get(name);
      const y = b.get(name);
      return {
        name,
        where: x && y ? 'both' : x ? 'CDN only' : 'bare only',
        cdnMin: x?.min ?? 0,
        bareMin: y?.min ?? 0,
        cdnShare: x?.gzShare ?? 0,
        bareShare: y?.gzShare ?? 0,
        cdnRemoved: x?.gzRemoved,
        dMin: (x?.min ?? 0) - (y?.min ?? 0),
        dShare: (x?.gzShare ?? 0) - (y?.gzShare ?? 0),
      };
    })
    .sort((p, q) => q.dMin - p.dMin || q.cdnMin - p.cdnMin);
}
function diffTable(title, rows) {
  console.log(`\n### ${title}\n`);
  console.log(
    '| name | in | CDN min KB | bare min KB | Δ min KB | CDN gz share KB | bare gz share KB | Δ gz share KB | CDN gz removed KB |\n' +
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.where} | ${kb(r.cdnMin)} | ${kb(r.bareMin)} | ${kb(r.dMin)} | ${kb(r.cdnShare)} | ${kb(r.bareShare)} | ${kb(r.dShare)} | ${r.cdnRemoved === undefined ? '—' : kb(r.cdnRemoved)} |`,
    );
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  console.log(
    `| **sum of rows** | | ${kb(sum('cdnMin'))} | ${kb(sum('bareMin'))} | ${kb(sum('dMin'))} | ${kb(sum('cdnShare'))} | ${kb(sum('bareShare'))} | ${kb(sum('dShare'))} | |`,
  );
}

diffTable(
  'Diff by group: CDN file minus bare client',
  diff('byGroup', () => true),
);
const sdkModule = (n) =>
  /^(core-internal|client|core)\/src\//.test(n) || n.includes('(copy inside') || n.startsWith('@modelcontextprotocol/');
const sdkRows = diff('byModule', sdkModule);
diffTable(
  'SDK modules: CDN file vs bare client (shared modules differ a little by minifier naming)',
  sdkRows.filter((r) => Math.max(r.cdnMin, r.bareMin) >= 50),
);
const extra = sdkRows.filter((r) => r.where === 'CDN only' || r.dMin > 200);
console.log(
  `\nSDK modules only in the CDN file, or > 0.2 KB bigger there: ${extra.length}, ` +
    `${kb(extra.reduce((s, r) => s + r.dMin, 0))} KB min, ${kb(extra.reduce((s, r) => s + r.dShare, 0))} KB gz share`,
);
const otherDeps = diff('byPackage', (n) => !n.startsWith('@modelcontextprotocol/') && !n.startsWith('ours'));
console.log(
  'Non-SDK packages (Δ min KB): ' +
    otherDeps
      .filter((r) => r.dMin !== 0)
      .map((r) => `${r.name} ${kb(r.dMin)}`)
      .join(', '),
);

console.log('\n### Named sets of modules (gz removed: whole-file gzip minus gzip without the set)\n');
console.log('| set | CDN min KB | CDN gz removed KB | bare min KB | bare gz removed KB |\n|---|---:|---:|---:|---:|');
cdn.sets.forEach((x, i) => {
  const y = bare.sets[i];
  console.log(`| ${x.name} | ${kb(x.min)} | ${kb(x.gzRemoved)} | ${kb(y.min)} | ${kb(y.gzRemoved)} |`);
});

writeFileSync(
  path.join(root, outDir, 'report.json'),
  JSON.stringify(
    Object.fromEntries(
      Object.entries(results).map(([k, r]) => [
        k,
        {
          entry: r.entry,
          total: r.total,
          real: r.real,
          byPackage: r.byPackage,
          byGroup: r.byGroup,
          byModule: r.byModule,
          sets: r.sets,
        },
      ]),
    ),
    null,
    2,
  ) + '\n',
);
console.log(`\nfull detail (every module): ${outDir}/report.json`);
