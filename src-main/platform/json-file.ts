// The shell's small files under userData (where the window was, which notices were read). They are conveniences:
// one that is missing, damaged or from another version is ignored rather than stopping Blogdesk.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** The file's value when `accept` takes it, else null (missing, unreadable, not JSON, or another shape). */
export function readJsonFile<T>(file: string, accept: (value: unknown) => value is T): T | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
  return accept(value) ? value : null
}

/** Writes the whole file at once, so a crash mid-write leaves the old one rather than half of the new. */
export function writeJsonFile(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true })
  const partial = `${file}.partial`
  writeFileSync(partial, `${JSON.stringify(value, null, 2)}\n`)
  renameSync(partial, file)
}
