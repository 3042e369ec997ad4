// The ceiling for the service benchmark: a bare node:http server that answers GET with a fixed feed and POST (after
// reading the body) with a fixed entry — what this machine can do with no routing, auth, parsing or storage.
// Run as: node --import tsx bench/bare-server.ts <feed.xml> <entry.xml>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const [feedFile, entryFile] = process.argv.slice(2)
const feed = readFileSync(feedFile!)
const entry = readFileSync(entryFile!)
const type = { 'Content-Type': 'application/x.atom+xml; charset=utf-8' }

const server = createServer((request, response) => {
  if (request.method === 'POST') {
    request.resume()
    request.on('end', () => response.writeHead(201, { ...type, 'Content-Length': entry.length }).end(entry))
    return
  }
  response.writeHead(200, { ...type, 'Content-Length': feed.length }).end(feed)
})
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
