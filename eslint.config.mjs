// @ts-check
import js from '@eslint/js';
import graphql from '@graphql-eslint/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Node's CommonJS globals, for the few plain .js/.cjs files (configuration and CI scripts). */
const nodeCommonJsGlobals = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
  process: 'readonly',
  console: 'readonly',
};

const CODE = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'];

/**
 * The GraphQL files and the schemas they are checked against: the emitted schema itself, and the
 * web dashboard's documents, as codegen.yml types them. A file belongs to the first project whose
 * documents match it.
 */
const graphQLConfig = {
  projects: {
    schema: { schema: 'schema/schema.graphql' },
    dashboard: { schema: 'schema/schema.graphql', documents: 'web/src/**/*.graphql' },
  },
};
const graphqlFiles = {
  languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig } },
  plugins: { '@graphql-eslint': graphql },
};
const schemaRules = graphql.configs['flat/schema-recommended'].rules;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/generated/**', 'web/dist/**', 'web/src/gql/**'] },
  {
    files: CODE,
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['scripts/*.mts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unused arguments and destructured leftovers named with a leading underscore are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Many methods implement promise-returning interfaces (Keyv stores, Apollo plugin hooks,
      // sources) with a synchronous body; `async` keeps a thrown error a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // One way to write each cross-cutting rule: a refused input is invalidArgument(…) (src/core/errors.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/core/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='AppError'] > Literal.arguments:first-child[value='INVALID_ARGUMENT']",
          message: "Refuse input with invalidArgument(message) from src/core/errors.ts, not new AppError('INVALID_ARGUMENT', …).",
        },
      ],
    },
  },
  {
    // Tests read HTTP answers (supertest's `res.body`, fetch's `json()`), which are `any` by design:
    // each test asserts the shape it reads. Everything else of the type-checked rules holds in tests.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    ignores: ['web/**'],
    languageOptions: { sourceType: 'commonjs', globals: nodeCommonJsGlobals },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The schema as clients see it (emitted by `npm run schema` from the type-graphql classes).
    files: ['schema/**/*.graphql'],
    ...graphqlFiles,
    rules: {
      ...schemaRules,
      // The Audioscape contract's field names (REST and GraphQL alike) are snake_case; renaming them would break its clients.
      '@graphql-eslint/naming-convention': [
        'error',
        {
          ...(/** @type {[string, Record<string, unknown>]} */ (schemaRules['@graphql-eslint/naming-convention']))[1],
          FieldDefinition: { style: 'camelCase', ignorePattern: '^(duration_ms|match_score)$' },
        },
      ],
      // Entities carry global ids through the Node interface; the values inside them (moods, timeline
      // intervals, similarity scores) and the connection types have no identity of their own.
      '@graphql-eslint/strict-id-in-types': 'off',
    },
  },
  {
    // The web dashboard's operations.
    files: ['web/src/**/*.graphql'],
    ...graphqlFiles,
    rules: {
      ...graphql.configs['flat/operations-recommended'].rules,
      // The dashboard's cache keys tracks by trackKey, the contract's key (web/src/graphql/apollo.client.ts): either identifies an object.
      '@graphql-eslint/require-selections': ['error', { fieldName: ['id', 'trackKey'] }],
    },
  },
);
