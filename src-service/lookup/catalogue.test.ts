// The HTTP catalogue, against a catalogue served on 127.0.0.1 (allow-listed, as a catalogue on the LAN would be).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SetupError } from '../setup-error'
import { HttpCatalogue } from './catalogue'
import { parseIsbn } from './isbn'
import { LookupError, SafeFetcher } from './safe-fetch'
import { page, startTestWebServer, type TestWebServer } from './test-web-server'

const weavingTheWeb = parseIsbn('0-06-251587-X')!

describe('HttpCatalogue', () => {
  let web: TestWebServer
  let fetcher: SafeFetcher
  beforeAll(async () => {
    web = await startTestWebServer()
    fetcher = new SafeFetcher({ allowHosts: ['127.0.0.1'], timeoutMs: 1000 })
  })
  afterAll(() => web.close())

  it('asks for the ISBN-13 and reads title, author and an http(s) thumbnail', async () => {
    web.route(
      '/isbn/9780062515872.json',
      page('application/json', JSON.stringify({ title: 'Weaving the Web', author: 'Tim Berners-Lee', thumbnail: 'https://covers.example/w.jpg' })),
    )
    const catalogue = new HttpCatalogue(`${web.origin}/isbn/{isbn}.json`, fetcher)
    expect(await catalogue.findBook(weavingTheWeb)).toEqual({
      title: 'Weaving the Web',
      author: 'Tim Berners-Lee',
      thumbnail: 'https://covers.example/w.jpg',
    })
  })

  it('can ask by ISBN-10, joins an authors array, and drops a thumbnail that is not a web address', async () => {
    web.route(
      '/by10/006251587X',
      page('application/json; charset=utf-8', JSON.stringify({ title: 'Weaving the Web', authors: ['Tim Berners-Lee', 'Mark Fischetti', 7], thumbnail: 'javascript:x' })),
    )
    const catalogue = new HttpCatalogue(`${web.origin}/by10/{isbn10}`, fetcher)
    expect(await catalogue.findBook(weavingTheWeb)).toEqual({
      title: 'Weaving the Web',
      author: 'Tim Berners-Lee, Mark Fischetti',
      thumbnail: null,
    })
    expect(await catalogue.findBook(parseIsbn('9791090636071')!)).toBeNull()
  })

  it('drops a thumbnail address with control characters, as the service stores no such address', async () => {
    web.route('/controls/9780062515872', page('application/json', JSON.stringify({ title: 'Weaving the Web', thumbnail: 'https://covers.example/\u0007w.jpg' })))
    const catalogue = new HttpCatalogue(`${web.origin}/controls/{isbn}`, fetcher)
    expect(await catalogue.findBook(weavingTheWeb)).toMatchObject({ title: 'Weaving the Web', thumbnail: null })
  })

  it('gives null for an answer that names no book, and fails on a missing book or an answer that is not JSON', async () => {
    web.route('/empty/9780062515872', page('application/json', '{"title": "  "}'))
    web.route('/broken/9780062515872', page('application/json', '{title:'))
    expect(await new HttpCatalogue(`${web.origin}/empty/{isbn}`, fetcher).findBook(weavingTheWeb)).toBeNull()
    await expect(new HttpCatalogue(`${web.origin}/broken/{isbn}`, fetcher).findBook(weavingTheWeb)).rejects.toThrow(/is not JSON/)
    await expect(new HttpCatalogue(`${web.origin}/none/{isbn}`, fetcher).findBook(weavingTheWeb)).rejects.toThrow(LookupError)
  })

  it('refuses, at start, an address that is not http(s) or has no place for the ISBN', () => {
    expect(() => new HttpCatalogue('ftp://catalogue.example/{isbn}', fetcher)).toThrow(SetupError)
    expect(() => new HttpCatalogue('https://catalogue.example/lookup', fetcher)).toThrow(/containing \{isbn\}/)
  })
})
