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

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The service is a second main-process entry: it runs under plain Node (`npm run service`)
        // and as the app's built-in sandbox in an Electron utility process. The image helper is a third, run as a
        // utility process too, so that sharp stays out of the main process.
        input: {
          index: resolve(root, 'src-main/index.ts'),
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
    plugins: [react(), devServerCsp],
  },
})
