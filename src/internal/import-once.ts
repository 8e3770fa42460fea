// A part of an element that is a chunk of its own in the CDN build (the explorer's "Try it"
// form, the manager's form, the answer views): imported once per page with the core's
// `importOnce`. A failed import is logged and forgotten, so the next call tries again; callers
// get `undefined` and show that the part could not be loaded.
import { importOnce as once, replaceableImport as replaceable } from '../core/import-once.js';

const logged =
  (what: string) =>
  (e: unknown): undefined => {
    console.error(`mcp-elements: could not load ${what}:`, e);
    return undefined;
  };

/** `load` run once; its promise, or `undefined` after a failure that the next call retries. */
export const importOnce = <T>(what: string, load: () => Promise<T>): (() => Promise<T | undefined>) =>
  once(load, logged(what));

/** `importOnce` whose import the tests can replace (a chunk that cannot be fetched). */
export const replaceableImport = <T>(what: string, real: () => Promise<T>) => replaceable(real, logged(what));
