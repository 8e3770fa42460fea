// Stands in for the SDK's ajv validator provider in every build and in the test runner. ajv
// compiles schemas with `new Function` (blocked by a strict CSP) and is CommonJS, so it cannot
// be tree-shaken even when another validator is passed. The hub always passes
// CfWorkerJsonSchemaValidator, so this class is never constructed.
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('mcp-elements: the ajv JSON Schema validator is not bundled; pass CfWorkerJsonSchemaValidator.');
  }
}
