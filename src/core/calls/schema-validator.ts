// The JSON Schema validator (@cfworker/json-schema) as a chunk of its own. Only a page
// that talks to a server needs it: it arrives with the connection code (the session loader waits
// for both), before a call's arguments are checked, and with the explorer's "Try it" form; a
// chat page that only shows calls and history never fetches it. Decision 053.
import type { Validator } from '@cfworker/json-schema';
import { McpElementsError } from '../errors.js';
import { cannotLoad, replaceableImport, rethrow } from '../import-once.js';

let ValidatorClass: typeof Validator | undefined;

const validatorImport = replaceableImport(
  () =>
    import('@cfworker/json-schema').then((m) => {
      ValidatorClass = m.Validator;
    }),
  rethrow((e) => new McpElementsError('validator-not-loaded', cannotLoad('schema validator', e), { cause: e })),
);

/**
 * Load the validator that `validateArguments` and `argumentIssues` use. Connecting a server loads
 * it too; call this first when you validate before any server is connected. A failed load (the
 * chunk could not be fetched) rejects with `McpElementsError` code `validator-not-loaded` and is
 * tried again by the next call.
 */
export function loadValidator(): Promise<void> {
  return validatorImport.load();
}

/**
 * Tests: import the validator through `replacement` (given the real import) from now on, as if
 * the page had just loaded; without it, the real import again. @internal
 */
export function replaceValidatorImport(replacement?: (real: () => Promise<void>) => Promise<void>): void {
  ValidatorClass = undefined;
  validatorImport.replace(replacement);
}

/** Whether `validateArguments` and `argumentIssues` can run now (see `loadValidator`). */
export function validatorLoaded(): boolean {
  return ValidatorClass !== undefined;
}

/** The validator class; a typed error before `loadValidator()` has finished. */
export function validatorClass(): typeof Validator {
  if (!ValidatorClass)
    throw new McpElementsError(
      'validator-not-loaded',
      'The schema validator is not loaded yet: await loadValidator() (or connect a server) before validating arguments.',
    );
  return ValidatorClass;
}
