// A synchronous last resort for call records when the page goes away: IndexedDB writes started
// in `pagehide` often do not finish before a reload tears the page down, so the records still
// waiting for their write are also put in localStorage (synchronous), and merged at the next load.
import type { ToolCallRecord } from '../calls/records.js';

/** Bigger journals are not written (the IndexedDB flush is still attempted). */
const MAX_JOURNAL_CHARS = 2_000_000;

function local(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked (sandboxed frame, privacy settings)
  }
}

const keyOf = (storeName: string) => `mcp-elements:${storeName}:journal`;

/** Add records to the store's journal (synchronously). */
export function writeJournal(storeName: string, records: readonly ToolCallRecord[]): void {
  const ls = local();
  if (!ls || !records.length) return;
  try {
    const all = { ...readJournal(ls, storeName) };
    for (const r of records) all[r.id] = r;
    const text = JSON.stringify(all);
    if (text.length <= MAX_JOURNAL_CHARS) ls.setItem(keyOf(storeName), text);
  } catch {
    // quota or a value that cannot be serialised: the IndexedDB flush is still on its way
  }
}

function readJournal(ls: Storage, storeName: string): Record<string, ToolCallRecord> {
  try {
    const v = JSON.parse(ls.getItem(keyOf(storeName)) ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * The journal's records, left in place: the page that loads them removes them only once their
 * IndexedDB write has finished (`dropFromJournal`), so a page closed, or another tab reading
 * IndexedDB, before that write still finds them.
 */
export function peekJournal(storeName: string): ToolCallRecord[] {
  const ls = local();
  return ls ? Object.values(readJournal(ls, storeName)) : [];
}

/** Remove records from the journal (they are in IndexedDB now); the journal goes when empty. */
export function dropFromJournal(storeName: string, ids: readonly string[]): void {
  const ls = local();
  if (!ls || !ids.length) return;
  try {
    const all = { ...readJournal(ls, storeName) };
    for (const id of ids) delete all[id];
    if (Object.keys(all).length) ls.setItem(keyOf(storeName), JSON.stringify(all));
    else ls.removeItem(keyOf(storeName));
  } catch {
    // the records are in IndexedDB; a journal left behind is merged again, harmlessly
  }
}
