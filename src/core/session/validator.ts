// The JSON Schema validator the SDK client uses (structured output against a tool's output
// schema), on the same @cfworker/json-schema copy that validates tool arguments
// (calls/records.ts). The SDK's browser build carries its own bundled copy of cfworker as its
// default validator; the CDN builds resolve the SDK's `_shims` to sdk-shims.ts so that copy is
// left out (decision 053).
import { Validator } from '@cfworker/json-schema';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

const DIALECTS: Record<string, '2020-12' | '2019-09' | '7'> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': '7',
  'json-schema.org/draft-06/schema': '7',
};

/** The draft a schema declares (`$schema`; none means 2020-12), as the SDK's own provider reads it. */
export function draftOf(schema: object): '2020-12' | '2019-09' | '7' {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return '2020-12';
  const draft = DIALECTS[declared.replace(/^https?:\/\//, '').replace(/#$/, '')];
  if (!draft)
    throw new Error(
      `JSON Schema declares an unsupported dialect ("$schema": "${declared.slice(0, 200)}"); ` +
        'supported: 2020-12, 2019-09, draft-07, draft-06.',
    );
  return draft;
}

/**
 * `jsonSchemaValidator` for the SDK client: first error only, as the SDK's default. A schema is
 * compiled once: the hub gives the SDK the tool's definition with each call, and the SDK asks for
 * its output validator on every call (compiling cost a dereference of the whole schema per call).
 */
export class SchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let check = compiled.get(schema);
    if (!check) {
      const validator = new Validator(schema as never, draftOf(schema), true);
      check = (input) => {
        const r = validator.validate(input);
        return r.valid
          ? { valid: true, data: input, errorMessage: undefined }
          : {
              valid: false,
              data: undefined,
              errorMessage: r.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join('; '),
            };
      };
      compiled.set(schema, check);
    }
    return check as JsonSchemaValidator<T>;
  }
}
/** Compiled validators by schema (the catalogue keeps a tool's schema object until it is listed again). */
const compiled = new WeakMap<object, JsonSchemaValidator<unknown>>();
