// Context-budget ranking rows for `npm run bench` (bench/run.mjs imports rankingRows), or on its
// own: `node bench/ranking.mjs`. Quality is measured on the corpus in test/fixtures (dev and held
// queries); the goal is the held top-10 rate of issue 12 (90%).
import { build } from 'vite';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { singleFileBuild } from '../scripts/vite-plugins.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GOAL = 90;

export async function rankingRows(rounds = Number(process.env.BENCH_ROUNDS ?? 20)) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: singleFileBuild({
      entry: 'bench/ranking-entry.ts',
      outDir: 'bench/.build',
      fileName: 'ranking.js',
      emptyOutDir: false,
    }),
  });
  const m = await import(pathToFileURL(path.join(root, 'bench/.build/ranking.js')).href + `?t=${Date.now()}`);
  const { tools, dev, held } = m.quality();
  const t = m.timing(2000, rounds);
  const pct = (n, q) => (100 * n) / q.queries;
  const quality = (set, q, k) => ({
    measure: `ranking: right tool in top ${k}, ${set} queries (${q.queries}) over ${tools} tools (%)`,
    ours: pct(q[`top${k}`], q),
    baseline: k === 10 && set === 'held' ? GOAL : NaN,
    baselineName: k === 10 && set === 'held' ? 'goal (issue 12)' : 'absolute (no baseline)',
    ratio: k === 10 && set === 'held' ? pct(q.top10, q) / GOAL : NaN,
  });
  return [
    quality('held', held, 10),
    quality('held', held, 3),
    quality('held', held, 1),
    quality('dev', dev, 10),
    quality('dev', dev, 3),
    {
      measure: `ranking: score one query, ${t.tools} tools (index memoised), median of ${rounds} (ms)`,
      ours: t.query,
      baseline: t.build,
      baselineName: 'building the index of the same tools (once per tool set)',
      ratio: t.query / t.build,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await rankingRows();
  console.log('\n| measure | ours | baseline | baseline is | ratio |\n|---|---:|---:|---|---:|');
  for (const r of rows)
    console.log(
      `| ${r.measure} | ${r.ours.toFixed(1)} | ${Number.isNaN(r.baseline) ? '—' : r.baseline.toFixed(1)} | ${r.baselineName} | ${Number.isNaN(r.ratio) ? '—' : r.ratio.toFixed(2)} |`,
    );
}
