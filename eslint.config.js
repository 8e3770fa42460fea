// Lint: typescript-eslint (syntax-level rules), lit and web-component rules, and the import
// boundary between the elements and the core.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

/** Elements (and what they build on) reach the core only through its public entry. */
export const coreBoundary = {
  patterns: [
    {
      // core/registry/index.js: the registry client, an entry of its own (only the directory loads it);
      // core/import-once.js: the one lazy-import helper (no state, no imports) the elements share
      regex: '^(\\.\\./)+(src/)?core/(?!index\\.js$|registry/index\\.js$|import-once\\.js$).+',
      message: 'Import the core through its public entry (core/index.js), as a host page would.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.build/**', 'test-results/**', 'custom-elements.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  lit.configs['flat/recommended'],
  wc.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.mocha } },
    rules: {
      // `_` marks an argument or binding kept for its position
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // `catch {}` that ignores on purpose says so in a comment where it matters
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/elements/**/*.ts', 'src/internal/**/*.ts', 'src/controllers/**/*.ts', 'test/elements/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', coreBoundary] },
  },
  {
    // tests poke at internals and use chai's property assertions (`expect(x).to.be.true`)
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
