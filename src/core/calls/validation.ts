// Step 3 of a call, validation: arguments against the tool's input schema, with the JSON Schema
// validator that comes with the connection code (schema-validator.ts). Invalid arguments are never
// sent; the model is told why in sentences it can act on.
import type { Validator } from '@cfworker/json-schema';
import type { Tool } from '@modelcontextprotocol/client';
import { validatorClass } from './schema-validator.js';

const validators = new WeakMap<object, Validator>();

function leafErrors(errors: ArgumentIssue[]): ArgumentIssue[] {
  // cfworker reports umbrella errors ("property x does not match") beside the leaf causes
  const umbrella = new Set([
    'properties',
    'allOf',
    'items',
    'prefixItems',
    'additionalItems',
    '$ref',
    'dependentSchemas',
    'unevaluatedProperties',
  ]);
  const leaves = errors.filter((e) => !umbrella.has(e.keyword));
  return leaves.length ? leaves : errors;
}

function where(loc: string): string {
  const path = loc
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return path.length ? `"${path.join('.')}"` : 'the arguments';
}

/** One problem with a tool's arguments, as the validator reports it (JSON Pointer fragments). */
export interface ArgumentIssue {
  /** The schema keyword that failed (`required`, `type`, `minimum`, `oneOf`, …). */
  readonly keyword: string;
  /** Where in the schema, e.g. `#/properties/shape/oneOf/1/properties/kind/const`. */
  readonly keywordLocation: string;
  /** Where in the arguments, e.g. `#/shape/kind` (for `required`: the object missing it). */
  readonly instanceLocation: string;
  readonly message: string;
}

/**
 * Every problem with the arguments (an empty list when they are valid), with the same validator
 * `validateArguments` and the hub use. For forms that show each field's problem next to it.
 * Needs the validator loaded (`loadValidator()`, or any connected server): before that it throws
 * `McpElementsError` code `validator-not-loaded`.
 */
export function argumentIssues(tool: Tool, args: unknown): ArgumentIssue[] {
  const schema = tool.inputSchema as object;
  let v = validators.get(schema);
  if (!v) {
    const Validator = validatorClass();
    try {
      v = new Validator(schema as never, '2020-12', false);
    } catch {
      return []; // a schema we cannot compile is the server's problem; let the server judge
    }
    validators.set(schema, v);
  }
  let r: ReturnType<Validator['validate']>;
  try {
    r = v.validate(args);
  } catch {
    // values JSON cannot carry (undefined, functions): judge what would be sent
    r = v.validate(JSON.parse(JSON.stringify(args ?? {})));
  }
  if (r.valid) return [];
  return r.errors.map((e) => ({
    keyword: e.keyword,
    keywordLocation: e.keywordLocation,
    instanceLocation: e.instanceLocation,
    message: e.error,
  }));
}

/**
 * Validate arguments against a tool's input schema. Returns null when valid, else sentences a
 * model can act on ("the arguments: Instance does not have required property "message".").
 * Needs the validator loaded, as `argumentIssues`.
 */
export function validateArguments(tool: Tool, args: unknown): string | null {
  const issues = argumentIssues(tool, args);
  if (!issues.length) return null;
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of leafErrors(issues)) {
    const line = `${where(e.instanceLocation)}: ${e.message}`;
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
    if (lines.length >= 10) break;
  }
  return lines.join('; ');
}
