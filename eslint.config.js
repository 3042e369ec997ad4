import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

// The layering of ARCHITECTURE.md, as import bans. A flat config replaces (never merges) a rule's options,
// so every folder below gets one complete list assembled from these pieces.

// A leading slash anchors the pattern to the module name, so `electron/main` is caught and `./electron` is not.
const electron = {
  group: ['/electron'],
  message: 'Only src-main/index.ts, windows/, ipc/, platform/ and src-preload/index.ts may import electron.',
}
const nodeBuiltins = {
  group: ['node:*', ...builtinModules],
  message: 'The renderer and the IPC contract run without Node: do the I/O in the main process.',
}
const otherProcesses = {
  group: ['**/src-main', '**/src-service', '**/src-protocol'],
  message: 'The renderer reaches the main process only through window.blog (src/lib/api.ts).',
}
const sqliteLayer = {
  group: ['**/src-shared/sqlite'],
  message: 'src-shared/sqlite is SQLite through Node, for core and the service: the renderer and the contract reach data through window.blog.',
}
// From the contract, its sibling, the layer is `../sqlite`, which the group above does not spell.
const sqliteLayerFromContract = { regex: '^\\.\\./sqlite(?:/|$)', message: sqliteLayer.message }
const processesCode = {
  group: ['**/src-main', '**/src-service', '**/src-renderer', '**/src-preload'],
  message: 'src-shared/sqlite is shared by core and the service, so it imports nothing of either, nor of the renderer or preload.',
}
const coreInternals = {
  group: ['**/core/*', '!**/core/index', '!**/core/index.ts', '!**/core/testing', '!**/core/testing/*'],
  message: "Enter core through its index.ts (or, from tests, its testing/ helpers); its folders are rooms with one door.",
}
const serviceCode = {
  group: ['**/src-service'],
  message: "Production main code does not run the service's code: only tests and testing/ helpers start the real service.",
}
/**
 * Each folder of core is a room entered only through its index.ts, from its siblings and from core/index.ts too;
 * `depth` is how deep below core/ the importing file sits. Tests may also use core/testing/ (it has no door).
 */
const roomDoors = (depth) => ({
  regex: `^${depth === 0 ? '\\./' : '(?:\\.\\./){' + depth + '}'}(?!testing/)[^./][^/]*/(?!index(?:\\.ts)?$)`,
  message: "Enter a folder of core through its index.ts, from its siblings too: don't reach into another folder's files.",
})
const apiInComponents = {
  group: ['**/lib/api'],
  message: "Components call their feature's store (or a small feature module), which alone calls lib/api.",
}
const appInPrimitives = {
  group: ['**/lib/api', '**/features'],
  message: 'Design-system primitives are presentation only: they take props and know nothing of the API or features.',
}
// Gitignore-style negation cannot re-allow `./x` once `*` has matched it, so this one is a regex: only siblings pass.
const anythingOutsideContract = {
  regex: '^(?!\\./[^/]+$)',
  message: 'The IPC contract imports nothing: it is shared by main, preload and renderer.',
}

const ban = (...entries) => [
  'error',
  {
    patterns: entries,
  },
]

/** The same bans for main-process `files`, plus, outside tests and testing/ helpers, the service's code. */
const mainProcess = (files, ...entries) => [
  { files, rules: { 'no-restricted-imports': ban(...entries) } },
  { files, ignores: ['**/*.test.ts', '**/testing/**'], rules: { 'no-restricted-imports': ban(...entries, serviceCode) } },
]

// Core's tests that start the service with a store set up (startTestService) or look into it (withStore).
const storeUsingCoreTests = [
  'src-main/core/accounts/accounts.test.ts',
  'src-main/core/handlers/{accounts,collection-feeds,posts,preview}.test.ts',
  'src-main/core/sync/{core,crash,engine,faults,offline}.test.ts',
]

/**
 * The service's store is asynchronous, so a forgotten await is a race, or a promise where a value was meant: these
 * type-aware rules make it a lint error in `files`, the code that uses the store. Type information costs lint time,
 * so it is read for those files only, through `parserOptions`.
 */
const awaitedStore = (parserOptions, files) => [
  {
    files,
    languageOptions: { parserOptions },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A promise returned from a try block without await escapes its catch and finally.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A promise in a condition is always true; callbacks returning promises are the routers' and timers' own idiom.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
]

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.tsbuild/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ban(electron, coreInternals),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...mainProcess(['src-main/**/*.ts'], electron, coreInternals),
  ...mainProcess(['src-main/index.ts', 'src-main/windows/**/*.ts', 'src-main/ipc/**/*.ts', 'src-main/platform/**/*.ts'], coreInternals),
  ...[0, 1, 2].flatMap((depth) =>
    mainProcess([`src-main/core/${'*/'.repeat(depth)}*.ts`], electron, coreInternals, roomDoors(depth)),
  ),
  {
    files: ['src-preload/index.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-shared/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ban(electron, nodeBuiltins, sqliteLayerFromContract, anythingOutsideContract) },
  },
  {
    // The contract's own tests may use the test runner; they still run without Node or Electron.
    files: ['src-shared/contract/**/*.test.ts'],
    rules: { 'no-restricted-imports': ban(electron, nodeBuiltins, sqliteLayerFromContract) },
  },
  {
    files: ['src-shared/sqlite/**/*.ts'],
    rules: { 'no-restricted-imports': ban(electron, processesCode) },
  },
  ...awaitedStore(
    { projectService: true, tsconfigRootDir: import.meta.dirname },
    ['src-service/**/*.ts', 'bench/events.ts', 'e2e/feed.spec.ts', 'e2e/categories.spec.ts'],
  ),
  // Core's tests are outside core's own tsconfig.json, which the project service would look for.
  ...awaitedStore({ project: './src-main/tsconfig.test.json', tsconfigRootDir: import.meta.dirname }, storeUsingCoreTests),
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ban(electron, nodeBuiltins, otherProcesses, sqliteLayer),
    },
  },
  {
    files: ['src-renderer/**/*.tsx'],
    rules: { 'no-restricted-imports': ban(electron, nodeBuiltins, otherProcesses, sqliteLayer, apiInComponents) },
  },
  {
    files: ['src-renderer/src/ui/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ban(electron, nodeBuiltins, otherProcesses, sqliteLayer, appInPrimitives) },
  },
)
