// Runtime checks for what the renderer sends. The renderer is untrusted: every request is checked before a handler
// sees it, and a request that does not fit is refused whole.
export type Check<T> = (value: unknown, path: string) => T

/** A request that does not fit the contract; the dispatcher answers it as an 'invalid-argument' Failure. */
export class ContractViolation extends Error {
  constructor(path: string, expectation: string) {
    super(`${path} ${expectation}.`)
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

/** A whole number within [min, max]. */
export function integer(options: { min: number; max: number }): Check<number> {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new ContractViolation(path, 'must be a whole number')
    if (value < options.min || value > options.max) {
      throw new ContractViolation(path, `must be between ${options.min} and ${options.max}`)
    }
    return value
  }
}

export const boolean: Check<boolean> = (value, path) => {
  if (typeof value !== 'boolean') throw new ContractViolation(path, 'must be true or false')
  return value
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(choices: readonly T[]): Check<T> {
  return (value, path) => {
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
      throw new ContractViolation(path, `must be one of ${choices.join(', ')}`)
    }
    return value as T
  }
}

/** `check`, or null (an absent field counts as null). */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === undefined || value === null ? null : check(value, path))
}

/** `check`, or undefined: for fields a request may leave out, such as the parts of a draft that did not change. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, path) => (value === undefined ? undefined : check(value, path))
}

export function list<T>(check: Check<T>, options: { maxItems: number }): Check<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new ContractViolation(path, 'must be a list')
    if (value.length > options.maxItems) throw new ContractViolation(path, `must hold at most ${options.maxItems} items`)
    return value.map((item, index) => check(item, `${path}[${index}]`))
  }
}

/** Binary data (a pasted image), as the structured clone delivers it. */
export function bytes(options: { maxBytes: number }): Check<Uint8Array> {
  return (value, path) => {
    if (!(value instanceof Uint8Array)) throw new ContractViolation(path, 'must be binary data')
    if (value.byteLength > options.maxBytes) {
      throw new ContractViolation(path, `must be at most ${Math.round(options.maxBytes / (1024 * 1024))} MB`)
    }
    return value
  }
}

/** A string-to-string map with few, short entries (a typed list item's fields). */
export function textMap(options: { maxEntries: number; maxLength: number }): Check<Record<string, string>> {
  const key = text({ maxLength: 64 })
  const entry = text({ maxLength: options.maxLength, allowEmpty: true })
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ContractViolation(path, 'must be an object')
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length > options.maxEntries) throw new ContractViolation(path, `must hold at most ${options.maxEntries} fields`)
    return Object.fromEntries(entries.map(([name, field]) => [key(name, `${path} key`), entry(field, `${path}.${name}`)]))
  }
}

/** A date and time in UTC to the second, as W3CDTF writes it (`2026-12-01T09:00:00Z`). */
export const utcDateTime: Check<string> = (value, path) => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ContractViolation(path, 'must be a date and time in UTC, as 2026-12-01T09:00:00Z')
  }
  return value
}
