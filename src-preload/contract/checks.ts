// Runtime checks for what the renderer sends. The renderer is untrusted: every request is checked before a handler
// sees it, and a request that does not fit is refused whole.
import { BlogdeskError } from './errors'

export type Check<T> = (value: unknown, path: string) => T

export class ContractViolation extends BlogdeskError {
  constructor(path: string, expectation: string) {
    super('invalid-argument', `${path} ${expectation}.`)
    this.name = 'ContractViolation'
  }
}

/** A request without arguments: the renderer may send nothing, `undefined` or `null`. */
export const nothing: Check<null> = (value, path) => {
  if (value !== undefined && value !== null) throw new ContractViolation(path, 'takes no arguments')
  return null
}

export function text(options: { maxLength: number; allowEmpty?: boolean }): Check<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw new ContractViolation(path, 'must be text')
    if (!options.allowEmpty && value.trim() === '') throw new ContractViolation(path, 'must not be empty')
    if (value.length > options.maxLength) {
      throw new ContractViolation(path, `must be at most ${options.maxLength} characters`)
    }
    return value
  }
}

/** An absolute http(s) URL, returned as the person typed it (trimmed). */
export const httpUrl: Check<string> = (value, path) => {
  const candidate = text({ maxLength: 2048 })(value, path).trim()
  let parsed: URL
  try {
    parsed = new URL(candidate)
  } catch {
    throw new ContractViolation(path, 'must be a full URL such as https://example.com/atom')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ContractViolation(path, 'must start with http:// or https://')
  }
  return candidate
}

/** A plain object with exactly these fields: unknown fields are refused, not ignored. */
export function record<T extends object>(fields: { [K in keyof T]: Check<T[K]> }): Check<T> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ContractViolation(path, 'must be an object')
    }
    const source = value as Record<string, unknown>
    const extra = Object.keys(source).find((key) => !Object.hasOwn(fields, key))
    if (extra !== undefined) throw new ContractViolation(`${path}.${extra}`, 'is not a known field')
    const result: Partial<T> = {}
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      result[key] = fields[key](source[key], `${path}.${key}`)
    }
    return result as T
  }
}
