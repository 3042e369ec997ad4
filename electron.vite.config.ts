import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

const root = import.meta.dirname

/**
 * The dev server injects an inline React-refresh preamble and <style> tags, and talks to the page over a WebSocket.
 * Only while serving is the page's CSP relaxed for that; the built app keeps the strict policy of index.html.
 */
const devServerCsp: Plugin = {
  name: 'blogdesk-dev-server-csp',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", "connect-src 'self' ws://localhost:*"),
}

/**
 * The window's entry is small: it sends the first screen's reads, then imports the window's code. Vite fetches a
 * dynamic import's files only once it runs; links in the page fetch them alongside the entry instead (scripts as
 * module preloads, styles as preloads the import then applies).
 */
const preloadWindowCode: Plugin = {
  name: 'blogdesk-preload-window-code',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk }) {
      if (!bundle || !chunk) return
      const scripts = new Set<string>()
      const styles = new Set<string>()
      const visit = (fileName: string) => {
        const file = bundle[fileName]
        if (file?.type !== 'chunk' || scripts.has(fileName)) return
        scripts.add(fileName)
        for (const css of file.viteMetadata?.importedCss ?? []) styles.add(css)
        file.imports.forEach(visit)
      }
      chunk.dynamicImports.forEach(visit)
      const linked = (fileName: string) => html.includes(`./${fileName}"`)
      const link = (fileName: string, attrs: Record<string, string>) => ({
        tag: 'link',
        attrs: { ...attrs, crossorigin: true, href: `./${fileName}` },
        injectTo: 'head' as const,
      })
      return [
        ...[...scripts].filter((fileName) => !linked(fileName)).map((fileName) => link(fileName, { rel: 'modulepreload' })),
        ...[...styles].map((fileName) => link(fileName, { rel: 'preload', as: 'style' })),
      ]
    },
  },
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The service is a second main-process entry: it runs under plain Node (`npm run service`)
        // and as the app's built-in sandbox in an Electron utility process. The image helper is a third, run as a
        // utility process too, so that sharp stays out of the main process. Core runs on a worker thread of the main
        // process, from a fourth.
        input: {
          index: resolve(root, 'src-main/index.ts'),
          'core-worker': resolve(root, 'src-main/core-worker.ts'),
          service: resolve(root, 'src-service/server.ts'),
          'image-worker': resolve(root, 'src-main/image-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        // A sandboxed window can only load a CommonJS preload.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    base: './',
    build: {
      minify: true,
      rollupOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
    plugins: [react(), devServerCsp, preloadWindowCode],
  },
})
