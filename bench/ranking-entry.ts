// Bundled by bench/ranking.mjs for Node: ranking quality on the held corpus, and the cost of the
// ranker's index (built once per tool set) against one query's scoring on 2,000 tools.
import { ToolIndex } from '../src/core/assistants/ranking.js';
import type { ModelTool } from '../src/core/providers/types.js';
import { corpusModelTools, evaluate, type Quality } from '../test/fixtures/ranking-eval.js';
import { DEV, HELD } from '../test/fixtures/tool-queries.js';

export function quality(): { tools: number; dev: Quality; held: Quality } {
  const tools = corpusModelTools();
  const index = new ToolIndex(tools);
  return { tools: tools.length, dev: evaluate(tools, DEV, index), held: evaluate(tools, HELD, index) };
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;

/** Median ms to build the index of `n` tools, and to score one query against it. */
export function timing(n: number, rounds: number): { tools: number; build: number; query: number } {
  const base = corpusModelTools();
  const tools: ModelTool[] = [];
  for (let i = 0; tools.length < n; i++) {
    const t = base[i % base.length]!;
    tools.push({
      ...t,
      name: `${t.name}_${Math.floor(i / base.length)}`,
      serverId: `${t.serverId}-${Math.floor(i / base.length)}`,
    });
  }
  const builds: number[] = [];
  const queries: number[] = [];
  let index: ToolIndex;
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    index = new ToolIndex(tools);
    builds.push(performance.now() - t0);
    const [q] = HELD[r % HELD.length]!;
    t0 = performance.now();
    index.rank(q);
    queries.push(performance.now() - t0);
  }
  return { tools: n, build: median(builds), query: median(queries) };
}
