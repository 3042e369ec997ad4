// Serves the built renderer over HTTP on loopback: Chromium will not load module scripts from file:// pages.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}

export interface StaticServer {
  url: string
  close(): Promise<void>
}

export async function serveDirectory(root: string): Promise<StaticServer> {
  const server = createServer(async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    let pathname: string
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    } catch {
      response.writeHead(400).end()
      return
    }
    // A browser tab asks for a favicon; an Electron window does not, and the app ships none.
    if (pathname === '/favicon.ico') {
      response.writeHead(204).end()
      return
    }
    const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname))
    const type = contentTypes[extname(file)]
    if (!file.startsWith(root + sep) || !type) {
      response.writeHead(404).end()
      return
    }
    let body: Buffer
    try {
      body = await readFile(file)
    } catch {
      response.writeHead(404).end()
      return
    }
    response
      .writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
      .end(request.method === 'HEAD' ? undefined : body)
  })
  server.listen(0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
