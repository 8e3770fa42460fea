// A local lexical ranker for an assistant's tools (no model, no network): BM25F over the tool's
// name, server, title, description and parameters, with light stemming, and the selection of the
// best tools within a budget. Pure: depends only on its inputs. Measured in decision 031.
import type { ModelTool } from '../providers/types.js';

/** Words that say nothing about which tool is meant. */
const STOP = new Set(
  (
    'a an the to for of in on at by with from into onto and or not no is are was were be been being ' +
    'it its this that these those there here my me i we our you your he she they them their us ' +
    'please can could would should will shall may might must do does did done have has had ' +
    'what which who whom whose when where why how some any all each every via as if then than so ' +
    'just also only about over under up out off again more most very too own same other such ' +
    'want need like let lets give tell show'
  ).split(' '),
);

/** Light stemming: plurals, -ing, -ed, and a final -e, so create/creates/created/creating meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:sh|ch|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  // running → run, stopped → stop
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Lower-case stemmed words of a text; splits snake_case, camelCase, kebab-case, `__` and dots. */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  const out: string[] = [];
  for (const w of spaced.split(/[^a-z0-9]+/)) {
    if (!w || STOP.has(w) || (w.length === 1 && !/\d/.test(w))) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * A few words users say for what tool descriptions call otherwise, added to the query at a lower
 * weight (measured on the dev queries: decision 031).
 */
const SYNONYMS: Record<string, string> = {
  open: 'create',
  report: 'create',
  new: 'create',
  make: 'create',
  start: 'create',
  find: 'search',
  look: 'search',
  lookup: 'search',
  dm: 'direct message',
  text: 'sms',
  ping: 'message',
  pr: 'pull request',
  mr: 'merge request',
  repo: 'repository',
  db: 'database',
  ticket: 'issue',
  bug: 'issue',
  rain: 'weather forecast',
  snow: 'weather forecast',
  sunny: 'weather forecast',
  temperature: 'weather',
  spreadsheet: 'sheet',
  doc: 'document',
  meeting: 'event',
  appointment: 'event',
  remove: 'delete',
  erase: 'delete',
  trash: 'delete',
  email: 'mail',
  mail: 'email',
};
const EXPAND = new Map(Object.entries(SYNONYMS).map(([k, v]) => [stem(k), v.split(' ').map(stem)]));
const SYNONYM_WEIGHT = 0.5;
const FILE = stem('file');

/** Query terms with their weights: the words themselves, then synonyms the query lacks. */
export function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>();
  const words = tokenize(query);
  for (const w of words) terms.set(w, 1);
  for (const w of words) for (const syn of EXPAND.get(w) ?? []) if (!terms.has(syn)) terms.set(syn, SYNONYM_WEIGHT);
  // a file name in the query (README.md, data.json) asks about a file
  if (/\w\.[a-z]{1,5}\b/i.test(query) && !terms.has(FILE)) terms.set(FILE, SYNONYM_WEIGHT);
  return terms;
}

/**
 * What a tool does, read from the verb in its name (`create_issue`, `browser_click`), and what a
 * query asks for, read from its first such verb: when they agree the tool is preferred.
 */
const ACTIONS: Record<string, string> = {};
for (const [action, words] of Object.entries({
  create: 'create add new open make post send start schedule file report write draft submit',
  get: 'get read show fetch view retrieve download describe open',
  list: 'list',
  update: 'update edit change modify set move rename replace',
  delete: 'delete remove archive trash erase',
  search: 'search find look query',
}))
  for (const w of words.split(' ')) ACTIONS[stem(w)] ??= action;
const ACTION_BOOST = 0.15;

function actionOf(words: readonly string[]): string | undefined {
  for (const w of words) if (ACTIONS[w]) return ACTIONS[w];
  return undefined;
}

/** The fields a tool is indexed by, with their weight and length normalisation (BM25F). */
const FIELDS = [
  { weight: 3, b: 0.3 }, // tool name
  { weight: 1, b: 0.3 }, // server (the model-facing name's prefix)
  { weight: 2.5, b: 0.3 }, // title
  { weight: 1, b: 0.75 }, // description
  { weight: 0.6, b: 0.75 }, // parameter names and descriptions
] as const;
const K1 = 1.2;
/** A query that names a server ("on Slack", "in google drive") prefers that server's tools. */
const SERVER_BOOST = 0.5;

function fieldTexts(modelTool: ModelTool): string[] {
  const props =
    ((modelTool.inputSchema.properties ?? {}) as Record<string, { description?: unknown; enum?: unknown }>) || {};
  const params: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    params.push(name);
    if (p && typeof p.description === 'string') params.push(p.description);
    if (p && Array.isArray(p.enum)) params.push(p.enum.filter((v) => typeof v === 'string').join(' '));
  }
  const sep = modelTool.name.indexOf('__');
  return [
    modelTool.tool.name,
    sep > 0 ? modelTool.name.slice(0, sep) : '',
    modelTool.tool.title ?? modelTool.tool.annotations?.title ?? '',
    modelTool.tool.description ?? '',
    params.join(' '),
  ];
}

/** An index over one tool set: built once per set, then each query costs only the scoring. */
export class ToolIndex {
  /** term → postings: tool index and its length-normalised, weighted term frequency. */
  readonly #postings = new Map<string, { doc: number; tf: number }[]>();
  /** Each tool's server name, as the set of its words. */
  readonly #servers: string[][];
  /** Each tool's action (see ACTIONS). */
  readonly #actions: (string | undefined)[];
  readonly size: number;

  constructor(tools: readonly ModelTool[]) {
    this.size = tools.length;
    const perDoc = tools.map((t) => fieldTexts(t).map(tokenize));
    this.#servers = perDoc.map((fields) => [...new Set(fields[1])]);
    this.#actions = perDoc.map((fields) => actionOf(fields[0]!));
    const avg = FIELDS.map((_, f) => perDoc.reduce((n, d) => n + d[f]!.length, 0) / Math.max(1, perDoc.length) || 1);
    perDoc.forEach((fields, doc) => {
      const tf = new Map<string, number>();
      fields.forEach((tokens, f) => {
        const { weight, b } = FIELDS[f]!;
        const norm = 1 - b + (b * tokens.length) / avg[f]!;
        for (const term of tokens) tf.set(term, (tf.get(term) ?? 0) + weight / norm);
      });
      for (const [term, v] of tf) {
        let list = this.#postings.get(term);
        if (!list) this.#postings.set(term, (list = []));
        list.push({ doc, tf: v });
      }
    });
  }

  /** A relevance score per tool (0 for tools that share no word with the query). */
  score(query: string): Float64Array {
    const scores = new Float64Array(this.size);
    const n = this.size;
    const terms = queryTerms(query);
    for (const [term, weight] of terms) {
      const list = this.#postings.get(term);
      if (!list) continue;
      const idf = weight * Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) scores[doc] += (idf * tf) / (K1 + tf);
    }
    const action = actionOf(tokenize(query));
    if (action) this.#actions.forEach((a, doc) => a === action && (scores[doc] *= 1 + ACTION_BOOST));
    this.#servers.forEach((words, doc) => {
      if (words.length && words.every((w) => terms.get(w) === 1)) scores[doc] *= 1 + SERVER_BOOST;
    });
    return scores;
  }

  /** Tool indices best first; ties (and tools with no score) keep the tool set's order. */
  rank(query: string): number[] {
    const s = this.score(query);
    return [...s.keys()].sort((a, b) => s[b]! - s[a]! || a - b);
  }
}

/** Characters / 4 of one tool's JSON in a provider's format: the estimate used everywhere. */
export function estimateTokens(entry: unknown): number {
  return Math.ceil(JSON.stringify(entry).length / 4);
}

export interface Budget {
  maxTools?: number;
  maxTokens?: number;
}

/**
 * The tools to send within a budget: pinned tools always (even past the budget, and they count
 * against it), then tools in `order` while they fit; a tool too big for the tokens left is
 * skipped and smaller ones after it may still fit. Returns indices: pinned first in the set's
 * order, then the others in ranking order.
 */
export function selectWithinBudget(
  order: readonly number[],
  costs: readonly number[],
  pinned: ReadonlySet<number>,
  budget: Budget,
): number[] {
  const maxTools = budget.maxTools ?? Infinity;
  const maxTokens = budget.maxTokens ?? Infinity;
  const out = [...pinned].sort((a, b) => a - b);
  let tokens = out.reduce((n, i) => n + costs[i]!, 0);
  for (const i of order) {
    if (out.length >= maxTools) break;
    if (pinned.has(i) || tokens + costs[i]! > maxTokens) continue;
    out.push(i);
    tokens += costs[i]!;
  }
  return out;
}
