// Lint: ESLint's recommended rules plus typescript-eslint's (syntax-only, so it stays fast).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import boundaries from './eslint/module-boundaries.js'

// One service shape (issue #40): a class's private members are JavaScript's `#private` fields and
// methods, private at run time too (a logged or serialized service shows none of its handles or
// secrets), not TypeScript's `private`, which only the compiler sees.
const HASH_PRIVATE = [
  { selector: "PropertyDefinition[accessibility='private']", message: 'Use a #private field, not TypeScript private (one service shape, docs/architecture.md).' },
  { selector: "MethodDefinition[accessibility='private']", message: 'Use a #private method, not TypeScript private (one service shape, docs/architecture.md).' },
  { selector: 'TSParameterProperty', message: 'Declare the field (#name) and assign it in the constructor: no parameter properties (one service shape).' },
]

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'drizzle/**', 'bench/results/**', 'coverage/**', 'dist/**', 'packages/*/dist/**', 'packages/*/.test-build-*/**', 'packages/sdk/src/openapi.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['src/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...HASH_PRIVATE] } },
  {
    // Request input reaches a service field by field: a spread or rest of the query string once let
    // `?userId=&partnerId=` replace the customer's own tenant (issue #20). The tenant comes only
    // from the authenticated principal (customerOf, adminOf, apiKeyOf).
    files: ['src/app.ts', 'src/http/**/*.ts', 'src/modules/**/*routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "SpreadElement > MemberExpression[object.name='request'][property.name=/^(query|params|body|headers)$/]",
          message: 'Do not spread request input: pick its fields one by one.',
        },
        {
          selector: "VariableDeclarator[init.object.name='request'][init.property.name=/^(query|params|body|headers)$/] > ObjectPattern > RestElement",
          message: 'Do not collect the rest of request input: pick its fields one by one.',
        },
        {
          selector: "CallExpression > MemberExpression.arguments[object.name='request'][property.name='query']",
          message: 'Do not pass a whole query string to a service: pick its fields one by one.',
        },
        ...HASH_PRIVATE,
      ],
    },
  },
  {
    // The console (decision 0028) reads the API's JSON answers, whose shapes the OpenAPI document
    // owns; it shows their fields rather than typing each answer a second time, hence `any` there.
    files: ['console/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Small edges (issue #40): a route file registers one resource's routes, and no registration
    // function, flow or buildApp step runs over 120 lines (blank lines and comments not counted).
    files: ['src/app.ts', 'src/flows/**/*.ts', 'src/http/**/*.ts', 'src/modules/**/*routes.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Module boundaries (decision 0016): a module is imported only through its index.ts, and the
    // platform (http, db, lib) imports no module. Tests may import a module's internals.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/module-boundaries': 'error' },
  },
)
