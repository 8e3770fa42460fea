// How the card words a call's numbers and values: durations, the time since it started, progress,
// and an argument's value as a person reads it.
import type { ToolCallRecord } from '../../core/index.js';

/** A tool's description in the approval box is cut after this many characters. */
export const MAX_DESCRIPTION = 300;
/** A value this long may scroll: its box takes focus, so a keyboard can scroll it. */
export const LONG_VALUE = 200;
/** What the user approves is shown whole (the box scrolls) up to this, and the rest is counted. */
const MAX_VALUE = 20_000;

/** An argument's value as a person reads it: text as is, anything else as compact JSON; and how much is not shown. */
export function readable(value: unknown): { text: string; cut: number } {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE ? { text: text.slice(0, MAX_VALUE), cut: text.length - MAX_VALUE } : { text, cut: 0 };
}

/** A finished call's duration: "840 ms", "12.3 s". */
export function formatDuration(ms?: number): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Time since a call started, in whole seconds (and minutes): "7 s", "2 min 5 s". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const min = Math.floor(total / 60);
  return min ? `${min} min ${total % 60} s` : `${total} s`;
}

const num = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Progress in words: "3 of 10 (30%)" when the server gives a total, else "3 so far". */
export function progressText(
  p: NonNullable<ToolCallRecord['progress']>,
  t: (k: 'progressOf' | 'progressSoFar') => string,
): string {
  if (p.total && p.total > 0)
    return t('progressOf')
      .replace('{done}', num(p.progress))
      .replace('{total}', num(p.total))
      .replace('{percent}', String(Math.min(100, Math.round((p.progress / p.total) * 100))));
  return t('progressSoFar').replace('{done}', num(p.progress));
}
