import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const root = import.meta.dirname

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The service is a second main-process entry: it runs under plain Node (`npm run service`)
        // and as the app's built-in sandbox in an Electron utility process.
        input: {
          index: resolve(root, 'src-main/index.ts'),
          service: resolve(root, 'src-service/server.ts'),
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
      rollupOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
    plugins: [react()],
  },
})
