import fs from 'node:fs'
import path from 'node:path'

// The repository's test documents (test-fixtures/README.md says where each one came from): every test of app,
// service and protocol reads them through this module, so they are found wherever the repository is checked out.
const FIXTURES = path.resolve(import.meta.dirname, '../test-fixtures')

export function readFixture(relativePath: string): string {
  return fs.readFileSync(path.join(FIXTURES, relativePath), 'utf8')
}

/** The names of the files in a folder of test-fixtures/, sorted. */
export function fixtureNames(folder: string): string[] {
  return fs.readdirSync(path.join(FIXTURES, folder)).toSorted()
}

export interface Capture {
  /** The X-WSSE value of the (first) request. */
  wsse: string | undefined
  /** When the server answered (its Date header), to replay the request against an injected clock. */
  answeredAt: Date
  /** The body of the (first) request; empty when it had none. */
  requestBody: string
  /** The body of the (first) response. */
  responseBody: string
}

/** Reads one `######## request` / `######## response` capture of test-fixtures/peers. */
export function readCapture(relativePath: string): Capture {
  const text = readFixture(relativePath)
  const [request = '', response = ''] = text.split(/^######## response \d+\n/m)
  const wsse = /^X-WSSE: (.*)$/m.exec(request)?.[1]
  const date = /^Date: (.*)$/m.exec(response)?.[1]
  if (date === undefined) throw new Error(`${relativePath} has no response Date header`)
  return { wsse, answeredAt: new Date(date), requestBody: bodyOf(request), responseBody: bodyOf(response) }
}

/** The body of a file holding one HTTP message (headers, a blank line, the body), as the peer captures do. */
export function readMessageBody(relativePath: string): string {
  return bodyOf(readFixture(relativePath))
}

// Headers end at the first blank line; wire captures end their header lines with CRLF.
function bodyOf(message: string): string {
  const blankLine = /\r?\n\r?\n/.exec(message)
  return blankLine ? message.slice(blankLine.index + blankLine[0].length) : ''
}

/** One numbered `=== n. … ===` section of atom03/xmlatom-generated-shapes.txt, without its heading. */
export function generatedShape(section: number): string {
  const text = readFixture('atom03/xmlatom-generated-shapes.txt')
  const start = text.indexOf(`=== ${section}. `)
  if (start === -1) throw new Error(`xmlatom-generated-shapes.txt has no section ${section}`)
  const bodyStart = text.indexOf('\n', start) + 1
  const end = text.indexOf('\n=== ', bodyStart)
  return text.slice(bodyStart, end === -1 ? undefined : end)
}
