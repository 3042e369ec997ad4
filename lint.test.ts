// The layering of ARCHITECTURE.md is only as good as the rules that enforce it: these tests feed ESLint imports that must
// fail (and some that must pass) in the real folders, and check the tree itself for electron imports out of place.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = import.meta.dirname
const eslint = new ESLint({ cwd: root })

/** The messages of no-restricted-imports for `import` of `source` in a file at `filePath`. */
async function importProblems(filePath: string, source: string): Promise<string[]> {
  const code = `import * as imported from '${source}'\n\nexport const used = imported\n`
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) })
  if (!result) throw new Error(`ESLint returned nothing for ${filePath}`)
  const ignored = result.messages.find((message) => message.ruleId === null)
  if (ignored) throw new Error(`ESLint did not lint ${filePath}: ${ignored.message}`)
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

describe('layering rules in eslint.config.js', () => {
  it.each([
    ['src-renderer/src/x.ts', 'electron'],
    ['src-renderer/src/x.tsx', 'electron/renderer'],
    ['src-main/core/x.ts', 'electron'],
    ['src-main/core/accounts/x.ts', 'electron/main'],
    ['src-protocol/x.ts', 'electron'],
    // Lint of the service is type-aware, so its files must be ones its tsconfig knows: real ones, not made up.
    ['src-service/app.ts', 'electron'],
    ['src-shared/contract/x.ts', 'electron'],
    ['src-shared/sqlite/x.ts', 'electron'],
    ['e2e/x.ts', 'electron'],
  ])('%s may not import %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toContainEqual(expect.stringContaining('may import electron'))
  })

  it.each([
    ['src-renderer/src/x.tsx', 'node:fs'],
    ['src-renderer/src/x.ts', 'fs/promises'],
    ['src-shared/contract/x.ts', 'node:fs'],
    ['src-shared/contract/x.ts', 'path'],
  ])('%s may not import the Node module %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toContainEqual(expect.stringContaining('run without Node'))
  })

  it.each([
    ['src-renderer/src/x.ts', '../../src-main/core'],
    ['src-renderer/src/features/accounts/x.tsx', '../../../../src-service/app'],
    ['src-renderer/src/x.ts', '../../src-protocol'],
    ['src-renderer/src/x.ts', '../../src-service'],
  ])('%s may not import another process: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining('only through window.blog')])
  })

  it.each([
    ['src-main/ipc/x.ts', '../core/store/db'],
    ['src-main/ipc/x.ts', '../core/store'],
    ['src-main/index.ts', './core/accounts'],
    ['src-main/platform/x.ts', '../core/accounts/vault'],
    ['e2e/x.ts', '../src-main/core/store'],
    ['src-service/app.ts', '../src-main/core/atom/http'],
  ])('%s may not reach into core: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining('Enter core through its index.ts')])
  })

  it.each([
    ['src-main/ipc/x.ts', '../core'],
    ['src-main/ipc/x.ts', '../core/index'],
    ['src-main/index.ts', './core'],
    ['e2e/x.ts', '../src-main/core'],
  ])('%s may enter core through its door: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it.each([
    ['src-main/core/sync/x.ts', '../../../src-service/store'],
    ['src-main/core/x.ts', '../../src-service/testing/service-fixture'],
    ['src-main/core/store/x/x.ts', '../../../../src-service'],
    ['src-main/windows/x.ts', '../../src-service/server'],
    ['src-main/ipc/x.ts', '../../src-service/resources'],
    ['src-main/index.ts', '../src-service/testing/service-process'],
  ])('production main code %s may not use the service: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining("does not run the service's code")])
  })

  it.each([
    ['src-main/core/sync/x.test.ts', '../../../src-service/testing/service-fixture'],
    ['src-main/core/testing/x.ts', '../../../src-service/testing/service-process'],
    ['src-main/core/store/testing/x.ts', '../../../../src-service/store'],
    ['src-main/platform/x.test.ts', '../../src-service/resources'],
    ['src-main/index.test.ts', '../src-service/testing/service-process'],
  ])('a main-process test or testing/ helper %s may start the real service: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it.each([
    ['src-main/core/sync/x.ts', '../store/drafts'],
    ['src-main/core/sync/x.test.ts', '../store/database'],
    ['src-main/core/handlers/x.ts', '../atom/failure'],
    ['src-main/core/testing/x.ts', '../sync/engine'],
    ['src-main/core/x.ts', './handlers/posts'],
    ['src-main/core/x.ts', './store/testing/crash-writer'],
    ['src-main/core/store/testing/x.ts', '../../sync/clock'],
  ])('%s may not reach into another folder of core: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining("don't reach into another folder's files")])
  })

  it.each([
    ['src-main/core/sync/x.ts', '../store'],
    ['src-main/core/sync/x.ts', '../store/index'],
    ['src-main/core/sync/x.ts', './engine'],
    ['src-main/core/sync/x.ts', '../platform'],
    ['src-main/core/sync/x.ts', '../../../src-protocol'],
    ['src-main/core/sync/x.ts', '../../../src-shared/contract'],
    ['src-main/core/sync/x.test.ts', '../testing/sync-fixture'],
    ['src-main/core/x.ts', './handlers'],
    ['src-main/core/store/testing/x.ts', '..'],
    ['src-main/core/store/testing/x.ts', '../../sync'],
  ])('%s may enter a folder of core through its door: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it.each([
    ['src-renderer/src/features/posts/x.tsx', '../../lib/api'],
    ['src-renderer/src/features/editor/x.tsx', '../../lib/api'],
    ['src-renderer/src/x.tsx', './lib/api'],
  ])('the component %s may not call the API: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining("Components call their feature's store")])
  })

  it.each([
    ['src-renderer/src/features/posts/x.ts', '../../lib/api'],
    ['src-renderer/src/features/posts/x.tsx', './store'],
    ['src-renderer/src/features/posts/x.tsx', '../../ui'],
    ['src-renderer/src/features/posts/x.tsx', '../../lib/apiError'],
    ['src-renderer/src/features/posts/x.tsx', '../../lib/links'],
  ])('%s may import %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it.each([
    ['src-renderer/src/ui/x.tsx', '../lib/api'],
    ['src-renderer/src/ui/x.ts', '../lib/api'],
    ['src-renderer/src/ui/x.tsx', '../features/posts'],
    ['src-renderer/src/ui/x.tsx', '../features/posts/store'],
  ])('the design-system primitive %s may not import %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([expect.stringContaining('presentation only')])
  })

  it.each([
    ['src-renderer/src/ui/x.tsx', './Button'],
    ['src-renderer/src/ui/x.tsx', '../../../src-shared/contract'],
  ])('the design-system primitive %s may import %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it.each(['react', '../index', '../../src-main/core', './nested/shape', 'zod'])(
    'the contract may not import %s',
    async (source) => {
      expect(await importProblems('src-shared/contract/x.ts', source)).toContainEqual(
        expect.stringContaining('The IPC contract imports nothing'),
      )
    },
  )

  it.each([
    ['src-renderer/src/x.ts', '../../src-shared/sqlite'],
    ['src-renderer/src/features/posts/x.tsx', '../../../../src-shared/sqlite/database'],
    ['src-renderer/src/ui/x.tsx', '../../../src-shared/sqlite'],
    ['src-shared/contract/x.ts', '../sqlite'],
    ['src-shared/contract/x.test.ts', '../sqlite/migrations'],
  ])('%s may not import the SQLite layer: %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toContainEqual(expect.stringContaining('src-shared/sqlite is SQLite through Node'))
  })

  it.each([
    '../../src-main/core',
    '../../src-service/store',
    '../../src-renderer/src/lib/api',
    '../../src-preload',
  ])('the SQLite layer may not import %s', async (source) => {
    expect(await importProblems('src-shared/sqlite/x.ts', source)).toEqual([
      expect.stringContaining('imports nothing of either, nor of the renderer or preload'),
    ])
  })

  it.each([
    ['src-shared/sqlite/x.ts', 'node-sqlite3-wasm'],
    ['src-shared/sqlite/x.ts', 'node:fs'],
    ['src-shared/sqlite/x.ts', './migrations'],
    ['src-main/core/store/x.ts', '../../../src-shared/sqlite'],
    ['src-service/store/sqlite-engine.ts', '../../src-shared/sqlite'],
  ])('%s may import %s', async (filePath, source) => {
    expect(await importProblems(filePath, source)).toEqual([])
  })

  it('the contract may import its own files', async () => {
    expect(await importProblems('src-shared/contract/x.ts', './shapes')).toEqual([])
  })

  it.each([
    'src-main/index.ts',
    'src-main/windows/x.ts',
    'src-main/ipc/x.ts',
    'src-main/platform/x.ts',
    'src-preload/index.ts',
  ])('%s may import electron', async (filePath) => {
    expect(await importProblems(filePath, 'electron')).toEqual([])
  })

  it('a local module that happens to be called electron is not Electron', async () => {
    expect(await importProblems('src-main/core/x.ts', './electron')).toEqual([])
  })
})

describe("the main process's TypeScript projects", () => {
  // A file of a composite project may import only the project's own files and its references' (TS6307 otherwise):
  // src-main/tsconfig.json holds production code and does not reference src-service; tsconfig.test.json does.
  const production = {
    'src-main/core/sync/uses-service.ts': '../../../src-service/store',
    'src-main/core/sync/uses-testing.ts': '../testing/manual-clock',
    'src-main/windows/uses-service.ts': '../../src-service/testing/service-process',
    'src-main/core/sync/uses-store.ts': '../store',
    'src-main/core/sync/uses-protocol.ts': '../../../src-protocol',
  }
  // Each test reads a whole project's files: seconds, more on a busy machine.
  const PROGRAM_TIMEOUT_MS = 90_000
  const tests = { 'src-main/core/sync/uses-service.test.ts': '../../../src-service/testing/service-fixture' }

  it('keep the service and the testing/ helpers out of production main code', () => {
    expect(unlistedImports('src-main/tsconfig.json', production)).toEqual({
      'src-main/core/sync/uses-service.ts': [expect.stringMatching(/src-service\/store\/index\.ts' is not listed/)],
      'src-main/core/sync/uses-testing.ts': [expect.stringMatching(/core\/testing\/manual-clock\.ts' is not listed/)],
      'src-main/windows/uses-service.ts': [expect.stringMatching(/service-process\.ts' is not listed/)],
      'src-main/core/sync/uses-store.ts': [],
      'src-main/core/sync/uses-protocol.ts': [],
    })
  }, PROGRAM_TIMEOUT_MS)

  it("let the main process's tests start the real service", () => {
    expect(unlistedImports('src-main/tsconfig.test.json', tests)).toEqual({ 'src-main/core/sync/uses-service.test.ts': [] })
  }, PROGRAM_TIMEOUT_MS)
})

/** For each probe file (path: the module it imports), the TS6307 errors of `project` about files it does not list. */
function unlistedImports(project: string, probes: Record<string, string>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
    },
  })
  if (!config) throw new Error(`${project} cannot be read`)
  const code = new Map(Object.entries(probes).map(([name, source]) => [join(root, name), `import * as imported from '${source}'\n\nexport const used = imported\n`]))
  const host = ts.createCompilerHost(config.options)
  const { getSourceFile, fileExists } = host
  host.getSourceFile = (name, ...rest) => {
    const probe = code.get(name)
    return probe === undefined ? getSourceFile.call(host, name, ...rest) : ts.createSourceFile(name, probe, ts.ScriptTarget.Latest)
  }
  host.fileExists = (name) => code.has(name) || fileExists.call(host, name)
  const program = ts.createProgram({
    rootNames: [...config.fileNames, ...code.keys()],
    options: config.options,
    projectReferences: config.projectReferences,
    host,
  })
  const unlisted = (name: string) =>
    program
      .getSemanticDiagnostics(program.getSourceFile(join(root, name)))
      .filter((diagnostic) => diagnostic.code === 6307)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  return Object.fromEntries(Object.keys(probes).map((name) => [name, unlisted(name)]))
}

describe('electron imports in the tree', () => {
  it('come only from the Electron shell and the preload', () => {
    expect(electronImporters(root)).toEqual([])
  })

  it('are found however they are written, and only where they are code', () => {
    const tree = mkdtempSync(join(tmpdir(), 'blogdesk-lint-'))
    const files: Record<string, string> = {
      'src-main/core/static.ts': "import { app } from 'electron'\n",
      'src-main/core/type-only.ts': "import type { App } from 'electron'\n",
      'src-main/core/inline-type.ts': "export type Net = import('electron').Net\n",
      'src-main/core/dynamic.ts': "export const load = () => import('electron/main')\n",
      'src-main/core/required.cjs': "module.exports = require('electron')\n",
      'src-protocol/re-export.ts': "export { net } from 'electron'\n",
      'src-renderer/src/view.tsx': "import { shell } from 'electron'\nexport const View = () => <a>{String(shell)}</a>\n",
      'src-main/core/mentions.ts': "// import { app } from 'electron'\nexport const text = \"from 'electron'\"\n",
      'src-main/core/local.ts': "import { x } from './electron'\nexport const y = x\n",
      'src-main/core/fake.test.ts': "import { vi } from 'vitest'\nimport { app } from 'electron'\nvi.mock('electron', () => ({ app: {} }))\n",
      'src-main/core/real.test.ts': "import { app } from 'electron'\nexport const a = app\n",
      'src-main/windows/allowed.ts': "import { BrowserWindow } from 'electron'\n",
      'src-main/index.ts': "import { app } from 'electron'\n",
      'src-preload/index.ts': "import { contextBridge } from 'electron'\n",
      'node_modules/some-package/index.js': "require('electron')\n",
      'out/main/index.js': "import { app } from 'electron'\n",
    }
    try {
      for (const [name, code] of Object.entries(files)) {
        mkdirSync(dirname(join(tree, name)), { recursive: true })
        writeFileSync(join(tree, name), code)
      }
      expect(electronImporters(tree).sort()).toEqual([
        'src-main/core/dynamic.ts',
        'src-main/core/inline-type.ts',
        'src-main/core/real.test.ts',
        'src-main/core/required.cjs',
        'src-main/core/static.ts',
        'src-main/core/type-only.ts',
        'src-protocol/re-export.ts',
        'src-renderer/src/view.tsx',
      ])
    } finally {
      rmSync(tree, { recursive: true, force: true })
    }
  })
})

const electronAllowedIn = ['src-main/index.ts', 'src-main/windows/', 'src-main/ipc/', 'src-main/platform/', 'src-preload/index.ts']
const notSource = new Set(['node_modules', 'out', 'dist', '.tsbuild', '.git', 'test-results', 'playwright-report'])
const sourceFile = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/
const isElectron = (source: string) => source === 'electron' || source.startsWith('electron/')

/** Files under `tree`, outside the allowed places, that load electron (a unit test that fakes it with vi.mock does not). */
function electronImporters(tree: string): string[] {
  const offenders: string[] = []
  for (const path of sourceFiles(tree)) {
    const name = relative(tree, path).split(sep).join('/')
    if (electronAllowedIn.some((place) => name === place || (place.endsWith('/') && name.startsWith(place)))) continue
    const { imported, mocked } = moduleReferences(path)
    const fakesElectron = /\.test\.tsx?$/.test(name) && mocked.some(isElectron)
    if (!fakesElectron && imported.some(isElectron)) offenders.push(name)
  }
  return offenders
}

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory() && !notSource.has(entry.name)) yield* sourceFiles(path)
    else if (entry.isFile() && sourceFile.test(entry.name)) yield path
  }
}

/** What a file imports, re-exports, `import()`s, `require()`s or names in `import('…')` types, and what it `vi.mock()`s. */
function moduleReferences(path: string): { imported: string[]; mocked: string[] } {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, scriptKind(path))
  const imported: string[] = []
  const mocked: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) imported.push(node.moduleSpecifier.text)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const reference = node.moduleReference.expression
      if (ts.isStringLiteral(reference)) imported.push(reference.text)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteral(node.argument.literal)) imported.push(node.argument.literal.text)
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression.getText(file)
      const source = node.arguments[0].text
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || callee === 'require') imported.push(source)
      if (callee === 'vi.mock' || callee === 'vi.doMock') mocked.push(source)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return { imported, mocked }
}

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX
  return /\.[cm]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS
}
