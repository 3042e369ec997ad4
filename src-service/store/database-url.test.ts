import { describe, expect, it } from 'vitest'
import { SetupError } from '../setup-error'
import { parseDatabaseUrl } from './database-url'

describe('--database', () => {
  it.each(['postgres://blogdesk:secret@127.0.0.1:5432/blogdesk', 'postgresql://db.internal/blogdesk?sslmode=require'])('takes %s as it is', (url) => {
    expect(parseDatabaseUrl(url)).toBe(url)
  })

  it.each([
    ['not a url', /^--database is not a URL; give PostgreSQL's as postgres:\/\/USER:PASS@HOST:PORT\/DB$/],
    ['mysql://me:secret@host/db', /^--database mysql:\/\/me:\*\*\*@host\/db is not a PostgreSQL URL/],
    ['postgres://me:secret@db.internal', /^--database postgres:\/\/me:\*\*\*@db.internal names no database/],
    ['postgres:///blogdesk', /names no host/],
  ])('refuses %s, saying what a usable one looks like without repeating the password', (text, message) => {
    const refuse = () => parseDatabaseUrl(text)
    expect(refuse).toThrow(SetupError)
    expect(refuse).toThrow(message)
  })
})
