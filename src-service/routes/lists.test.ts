// Typed lists over real HTTP: the root listing, creating items of every type from documents shaped as the TypePad
// client writes them, the computed titles, ratings, refusals, and lookups against a small web on 127.0.0.1 — filled
// in when the allow-list lets them through, refused (the item still stored as sent) when it does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE, NS, readEntry, readLinkFeed, type AtomEntry, type WsseCredentials } from '../../src-protocol'
import { readFixture } from '../../src-protocol/test-fixtures'
import { page, redirect, startTestWebServer, type TestWebServer } from '../lookup/test-web-server'
import type { Store } from '../store'
import { expectError, ivy, melody, signedRequest, startTestService, type ServiceFixture } from '../testing/service-fixture'

const fixture = (name: string) => readFixture(`atom03/written/typelist-${name}-entry.xml`)

/** Melody's lists are 1 (music), 2 (books), 3 (people), 4 (links); Ivy's is 5 (books). */
async function addLists(store: Store): Promise<void> {
  const [melodyId, ivyId] = await Promise.all(
    [melody, ivy].map(
      async ({ username, password, displayName, loginPassword }) =>
        (await store.users.add({ username, displayName, loginPassword, apiPassword: password })).id,
    ),
  )
  await store.lists.add({ ownerId: melodyId!, title: 'Heavy rotation', type: 'music' })
  await store.lists.add({ ownerId: melodyId!, title: 'On the desk', type: 'books' })
  await store.lists.add({ ownerId: melodyId!, title: 'People <& friends>', type: 'people' })
  await store.lists.add({ ownerId: melodyId!, title: 'Bookmarks', type: 'links' })
  await store.lists.add({ ownerId: ivyId!, title: 'Ivy’s books', type: 'books' })
}

const LOOKUP_LIMITS = { timeoutMs: 600, maxBytes: 16 * 1024 }

const extension = (entry: AtomEntry, ns: string, name: string) =>
  entry.extensions.find((element) => element.ns === ns && element.name === name)?.text
const linkOf = (entry: AtomEntry, rel: string) => entry.links.find((link) => link.rel === rel)?.href

describe('typed lists over Atom', () => {
  let web: TestWebServer
  let service: ServiceFixture
  /** The same service, but nothing is allow-listed: lookups to 127.0.0.1 are refused. */
  let fenced: ServiceFixture
  beforeAll(async () => {
    web = await startTestWebServer()
    service = await startTestService([], addLists, { ...LOOKUP_LIMITS, allowHosts: ['127.0.0.1'] })
    fenced = await startTestService([], addLists, LOOKUP_LIMITS)
  })
  afterAll(async () => {
    await Promise.all([service.dispose(), fenced.dispose()])
    await web.close()
  })

  const listUri = (id: number | string, on = service) => `${on.origin}/t/atom/lists/list_id=${id}`
  const post = (url: string, body: string, as: WsseCredentials = melody, headers: Record<string, string> = {}) =>
    signedRequest(url, as, { method: 'POST', body, headers: { 'Content-Type': 'application/xml', ...headers } })
  const create = async (url: string, xml: string): Promise<{ location: string; entry: AtomEntry; body: string }> => {
    const response = await post(url, xml)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 201 })
    expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
    return { location: response.headers.get('location')!, entry: readEntry(body), body }
  }

  describe('GET /t/atom/lists', () => {
    it('lists each of the user’s lists with its PostURI, feed and public page, titled with the list’s title', async () => {
      const root = `${service.origin}/t/atom/lists`
      const response = await signedRequest(root, melody)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(`${ATOM_MEDIA_TYPE}; charset=utf-8`)
      const titles = ['Heavy rotation', 'On the desk', 'People <& friends>', 'Bookmarks']
      expect(readLinkFeed(await response.text(), root)).toEqual(
        titles.flatMap((title, index) => [
          { rel: 'service.post', href: listUri(index + 1), type: ATOM_MEDIA_TYPE, title },
          { rel: 'service.feed', href: listUri(index + 1), type: ATOM_MEDIA_TYPE, title },
          { rel: 'alternate', href: `${service.origin}/lists/${index + 1}/`, type: 'text/html', title },
        ]),
      )
    })

    it('shows a user only their own lists, and needs WSSE', async () => {
      const root = `${service.origin}/t/atom/lists`
      const links = readLinkFeed(await (await signedRequest(root, ivy)).text(), root)
      expect(links.map((link) => link.href)).toEqual([listUri(5), listUri(5), `${service.origin}/lists/5/`])
      const anonymous = await fetch(root)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('www-authenticate')).toBe('WSSE profile="UsernameToken"')
    })
  })

  describe('creating items from the TypePad client’s documents', () => {
    it('music: "Artist - Song", the song’s details, rating and notes; Location reads the entry back', async () => {
      const { location, entry, body } = await create(listUri(1), fixture('song'))

      expect(location).toMatch(new RegExp(`^${listUri(1)}/entry_id=\\d+$`))
      const itemId = Number(location.split('=').at(-1))
      expect(entry.title).toBe('Os Eléctricos - Rua da Saudade')
      expect(entry.issued).toBe('2025-07-21T22:15:00Z')
      expect(entry.id).toBe(`tag:127.0.0.1,${new Date().getUTCFullYear()}:listitem-${itemId}`)
      expect(entry.content).toMatchObject({ mode: 'xml', value: 'Played in every café in Alfama this summer.' })
      expect(extension(entry, NS.song, 'title')).toBe('Rua da Saudade')
      expect(extension(entry, NS.song, 'album')).toBe('Linha 28')
      expect(extension(entry, NS.song, 'artist')).toBe('Os Eléctricos')
      expect(extension(entry, NS.song, 'thumbnail')).toBe('http://music.example.net/covers/linha-28.jpg')
      expect(extension(entry, NS.rvw, 'value')).toBe('5')
      expect(linkOf(entry, 'service.edit')).toBe(location)
      expect(linkOf(entry, 'alternate')).toBe(`${service.origin}/lists/1/#item-${itemId}`)

      const read = await signedRequest(location, melody)
      expect(read.status).toBe(200)
      expect(await read.text()).toBe(body)
    })

    it('books: "Author: Title"; an unknown ISBN with a valid check digit is stored as sent', async () => {
      const { entry } = await create(listUri(2), fixture('book'))
      expect(entry.title).toBe('Inês Carvalho: Seven Hills, Seven Tram Lines')
      expect(extension(entry, NS.book, 'isbn')).toBe('9789720004185')
      expect(extension(entry, NS.rvw, 'value')).toBe('4')
      expect(entry.content?.value).toBe('Read it slowly, one chapter per tram line.')
    })

    it('books: title and author are filled from the catalogue by ISBN when the client leaves them empty', async () => {
      const xml = fixture('book')
        .replace('<book:isbn>9789720004185', '<book:isbn>0-262-51087-1')
        .replace('<book:author>Inês Carvalho', '<book:author>')
        .replace('<book:title>Seven Hills, Seven Tram Lines', '<book:title>')
      const { entry } = await create(listUri(2), xml)
      expect(entry.title).toBe('Harold Abelson, Gerald Jay Sussman, Julie Sussman: Structure and Interpretation of Computer Programs, Second Edition')
      expect(extension(entry, NS.book, 'isbn')).toBe('0-262-51087-1')
      expect(extension(entry, NS.book, 'title')).toBe('Structure and Interpretation of Computer Programs, Second Edition')
    })

    it('books: what the client sent wins over the catalogue', async () => {
      const xml = fixture('book')
        .replace('<book:isbn>9789720004185', '<book:isbn>9780131103627')
        .replace('<book:author>Inês Carvalho', '<book:author>')
      const { entry } = await create(listUri(2), xml)
      expect(entry.title).toBe('Brian W. Kernighan, Dennis M. Ritchie: Seven Hills, Seven Tram Lines')
    })

    it('books: an ISBN with a wrong check digit is not looked up, and stored as sent', async () => {
      const xml = fixture('book')
        .replace('<book:isbn>9789720004185', '<book:isbn>0-13-110362-7')
        .replace('<book:author>Inês Carvalho', '<book:author>')
        .replace('<book:title>Seven Hills, Seven Tram Lines', '<book:title>')
      const { entry } = await create(listUri(2), xml)
      expect(entry.title).toBe('ISBN 0-13-110362-7')
      expect(extension(entry, NS.book, 'title')).toBeUndefined()
    })

    it('people: the person’s name is the title; every detail and the one-line bio come back', async () => {
      const { entry } = await create(listUri(3), fixture('person'))
      expect(entry.title).toBe('Joana Reis')
      expect(extension(entry, NS.person, 'homepage')).toBe('http://joana.example.net/')
      expect(extension(entry, NS.person, 'email')).toBe('joana@example.net')
      expect(extension(entry, NS.person, 'foaf_url')).toBe('http://joana.example.net/foaf.rdf')
      expect(extension(entry, NS.person, 'homepage_name')).toBe('Joana draws')
      expect(extension(entry, NS.bio, 'olb')).toBe('Sketches the city one tram stop at a time.')
      expect(entry.content).toBeNull()
    })

    it('links: the site title is the title, notes come back', async () => {
      const { entry } = await create(listUri(4), fixture('link'))
      expect(entry.title).toBe('Lisbon tram timetables')
      expect(extension(entry, NS.link, 'url')).toBe('http://transit.example.org/trams/')
      expect(entry.content?.value).toBe('Timetables for every tram line, kept up to date.')
    })

    it('ignores an Atom title sent with the item: the title is computed', async () => {
      const xml = fixture('link').replace('<content>', '<title>Please call me this</title><content>')
      const { entry } = await create(listUri(4), xml)
      expect(entry.title).toBe('Lisbon tram timetables')
    })
  })

  describe('lookups on a local web', () => {
    const anasHomepage = () => `${web.origin}/ana/`
    beforeAll(() => {
      web.route(
        '/ana/',
        page('text/html; charset=utf-8', `<html><head><title>Ana’s  place &amp; notes</title>
          <link rel="meta" type="application/rdf+xml" title="FOAF" href="foaf.rdf"></head><body>Hi</body></html>`),
      )
      web.route(
        '/ana/foaf.rdf',
        page('application/rdf+xml', `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/">
          <foaf:Person><foaf:name>Ana Lopez</foaf:name><foaf:nick>ana</foaf:nick><foaf:mbox rdf:resource="mailto:ana@example.org"/>
          <foaf:homepage rdf:resource="${web.origin}/ana/"/></foaf:Person></rdf:RDF>`),
      )
      web.route('/article', page('text/html', '<title>\n  An   article\n</title>'))
      web.route('/moved', redirect('/article'))
      web.route('/controls', page('text/html', '<title>Ta&#1;ble\u0007 of contents</title>'))
      web.route('/to-private', redirect('http://10.0.0.1/intranet'))
      web.route('/huge', page('text/html', `<title>Huge</title>${'x'.repeat(LOOKUP_LIMITS.maxBytes)}`))
      web.route('/slow', () => {})
    })

    /** The person fixture pointed at Ana's homepage, with the details a lookup can find left empty. */
    const anaXml = () =>
      fixture('person')
        .replace('<person:homepage>http://joana.example.net/', `<person:homepage>${anasHomepage()}`)
        .replace('<person:email>joana@example.net', '<person:email>')
        .replace('<person:foaf_url>http://joana.example.net/foaf.rdf', '<person:foaf_url>')
        .replace('<person:name>Joana Reis', '<person:name>')
        .replace('<person:homepage_name>Joana draws', '<person:homepage_name>')
    /** The link fixture pointed at `path`, its title left for the lookup. */
    const linkXml = (path: string) =>
      fixture('link')
        .replace('<link:url>http://transit.example.org/trams/', `<link:url>${web.origin}${path}`)
        .replace('<link:title>Lisbon tram timetables', '<link:title>')

    it('people: FOAF autodiscovery from the homepage fills name, email, FOAF address and homepage name', async () => {
      const { entry } = await create(listUri(3), anaXml())
      expect(entry.title).toBe('Ana Lopez')
      expect(extension(entry, NS.person, 'name')).toBe('Ana Lopez')
      expect(extension(entry, NS.person, 'email')).toBe('ana@example.org')
      expect(extension(entry, NS.person, 'foaf_url')).toBe(`${web.origin}/ana/foaf.rdf`)
      expect(extension(entry, NS.person, 'homepage_name')).toBe('Ana’s place & notes')
      expect(extension(entry, NS.bio, 'olb')).toBe('Sketches the city one tram stop at a time.')
    })

    it('links: the page title fills the site title, after a redirect too', async () => {
      expect((await create(listUri(4), linkXml('/article'))).entry.title).toBe('An article')
      expect((await create(listUri(4), linkXml('/moved'))).entry.title).toBe('An article')
    })

    it('links: control characters in a page title are dropped', async () => {
      expect((await create(listUri(4), linkXml('/controls'))).entry.title).toBe('Table of contents')
    })

    it('the same lookups are refused when 127.0.0.1 is not allow-listed; the items are stored as sent', async () => {
      const before = web.requested.length
      const person = (await create(listUri(3, fenced), anaXml())).entry
      const link = (await create(listUri(4, fenced), linkXml('/article'))).entry

      expect(web.requested.length).toBe(before)
      expect(person.title).toBe(anasHomepage())
      expect(extension(person, NS.person, 'name')).toBeUndefined()
      expect(extension(person, NS.person, 'email')).toBeUndefined()
      expect(extension(person, NS.bio, 'olb')).toBe('Sketches the city one tram stop at a time.')
      expect(link.title).toBe(`${web.origin}/article`)
      expect(link.content?.value).toBe('Timetables for every tram line, kept up to date.')
    })

    it('a redirect to a private address is not followed; the item is stored as sent', async () => {
      const { entry } = await create(listUri(4), linkXml('/to-private'))
      expect(entry.title).toBe(`${web.origin}/to-private`)
    })

    it('an oversized page and a page that never answers are cut off; the items are stored as sent', async () => {
      expect((await create(listUri(4), linkXml('/huge'))).entry.title).toBe(`${web.origin}/huge`)
      const started = Date.now()
      expect((await create(listUri(4), linkXml('/slow'))).entry.title).toBe(`${web.origin}/slow`)
      expect(Date.now() - started).toBeLessThan(LOOKUP_LIMITS.timeoutMs + 1500)
    })
  })

  describe('ratings', () => {
    const song = (rating: string) => fixture('song').replace('<rvw:value>5</rvw:value>', rating)

    it.each(['0', '6', '4.5', 'five', '-1', '10'])('refuses the rating "%s" with 400, storing nothing', async (value) => {
      const before = await itemCount(1)
      await expectError(await post(listUri(1), song(`<rvw:value>${value}</rvw:value>`)), 400, /whole number from 1 to 5/)
      expect(await itemCount(1)).toBe(before)
    })

    it('accepts RVW 0.2’s rating, and answers in RVW 0.1', async () => {
      const xml = song('<r2:rating xmlns:r2="http://purl.org/NET/RVW/0.2/">3</r2:rating>')
      const { entry } = await create(listUri(1), xml)
      expect(extension(entry, NS.rvw, 'value')).toBe('3')
    })

    it('refuses an RVW 0.2 rating out of range too', async () => {
      const xml = song('<r2:rating xmlns:r2="http://purl.org/NET/RVW/0.2/">7</r2:rating>')
      await expectError(await post(listUri(1), xml), 400, /rvw:rating "7"/)
    })

    it('treats an empty rating as no rating', async () => {
      const { entry } = await create(listUri(1), song('<rvw:value> </rvw:value>'))
      expect(extension(entry, NS.rvw, 'value')).toBeUndefined()
    })

    async function itemCount(listId: number): Promise<number> {
      const html = await (await fetch(`${service.origin}/lists/${listId}/`)).text()
      return (html.match(/<li id="item-/g) ?? []).length
    }
  })

  describe('refusals', () => {
    it('400 for an item without any of its type’s identifying elements, naming them', async () => {
      const xml = `<entry xmlns="http://purl.org/atom/ns#" xmlns:music="http://sixapart.com/atom/song#">
        <title>Only an Atom title</title><music:thumbnail>http://example.com/c.jpg</music:thumbnail></entry>`
      await expectError(await post(listUri(1), xml), 400, /at least one of song:title, song:artist, song:album/)
      await expectError(await post(listUri(3), fixture('link')), 400, /person:name, person:homepage, person:foaf_url/)
    })

    it('400 for an address that is not http(s), and for an email that is not one', async () => {
      const link = fixture('link').replace('http://transit.example.org/trams/', 'javascript:alert(1)')
      await expectError(await post(listUri(4), link), 400, /link:url "javascript:alert\(1\)" is not a web address/)
      const person = fixture('person').replace('joana@example.net', 'nobody')
      await expectError(await post(listUri(3), person), 400, /person:email "nobody" is not an email address/)
    })

    it('400 for an address with control characters, which a browser or a header would read otherwise', async () => {
      for (const [character, shown] of [['&#13;&#10;', '\\\\r\\\\n'], ['&#9;', '\\\\t'], ['\u0085', '\\\\u0085']]) {
        const link = fixture('link').replace('http://transit.example.org/trams/', `http://transit.example.org/trams/${character}x`)
        await expectError(await post(listUri(4), link), 400, new RegExp(`link:url contains a control character \\(${shown}\\)`))
      }
    })

    it('400 for an unparseable date, malformed XML, a DOCTYPE, or a document that is not an entry', async () => {
      await expectError(await post(listUri(4), fixture('link').replace('2025-08-30T08:05:00', 'yesterday')), 400, /<issued> "yesterday"/)
      await expectError(await post(listUri(4), fixture('link').slice(0, -10)), 400, /not a usable Atom entry/)
      await expectError(await post(listUri(4), `<!DOCTYPE entry [<!ENTITY x "y">]>${fixture('link')}`), 400, /DOCTYPE/)
      await expectError(await post(listUri(4), '<feed xmlns="http://purl.org/atom/ns#"/>'), 400, /Expected an Atom entry/)
    })

    it('413 for a body over 1 MiB: no list item is that large', async () => {
      const huge = fixture('link').replace('Timetables for every tram line, kept up to date.', 'x'.repeat(1024 * 1024))
      await expectError(await post(listUri(4), huge), 413, /larger than 1 MiB/)
    })

    it('415 for a body that is not sent as XML', async () => {
      await expectError(await post(listUri(4), fixture('link'), melody, { 'Content-Type': 'text/plain' }), 415, /application\/x\.atom\+xml/)
    })

    it('403 for another user’s list, its items and its PostURI', async () => {
      const { location } = await create(listUri(2), fixture('book'))
      const itemId = location.split('=').at(-1)
      await expectError(await post(listUri(5), fixture('book')), 403, /belongs to another user/)
      await expectError(await post(listUri(2), fixture('book'), ivy), 403, /belongs to another user/)
      await expectError(await signedRequest(location, ivy), 403, /belongs to another user/)
      await expectError(await signedRequest(`${listUri(5)}/entry_id=${itemId}`, ivy), 403, /item \d+ belongs to another user/)
    })

    it('404 for an unknown list or item, or an item of another of the user’s lists', async () => {
      const { location } = await create(listUri(2), fixture('book'))
      const itemId = location.split('=').at(-1)
      await expectError(await post(listUri(99), fixture('book')), 404, /no list 99/)
      await expectError(await post(listUri('abc'), fixture('book')), 404, /no list abc/)
      await expectError(await signedRequest(`${listUri(2)}/entry_id=999999`, melody), 404, /no item 999999/)
      await expectError(await signedRequest(`${listUri(1)}/entry_id=${itemId}`, melody), 404, /"Heavy rotation" has no item/)
    })

    it('405 with Allow for methods an item or a list does not take', async () => {
      const response = await signedRequest(listUri(1), melody, { method: 'DELETE' })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST, GET, HEAD')
    })
  })

  describe('notes and retries', () => {
    it('keeps XHTML notes as XHTML and plain-text notes as text', async () => {
      const xhtml = fixture('song').replace(
        '<content>Played in every café in Alfama this summer.</content>',
        '<content mode="xml" type="application/xhtml+xml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Best <em>ever</em></p></div></content>',
      )
      expect((await create(listUri(1), xhtml)).entry.content).toEqual({ mode: 'xml', type: 'application/xhtml+xml', value: '<p>Best <em>ever</em></p>' })

      const text = fixture('song').replace(
        '<content>Played in every café in Alfama this summer.</content>',
        '<content mode="escaped" type="text/plain">a &lt; b</content>',
      )
      expect((await create(listUri(1), text)).entry.content).toEqual({ mode: 'escaped', type: 'text/plain', value: 'a < b' })
    })

    it('answers a retry with the same Idempotency-Key with the first answer, creating one item', async () => {
      const key = { 'Idempotency-Key': 'list-item-retry-1' }
      const first = await post(listUri(4), fixture('link'), melody, key)
      const again = await post(listUri(4), fixture('link'), melody, key)
      expect([first.status, again.status]).toEqual([201, 201])
      expect(again.headers.get('location')).toBe(first.headers.get('location'))
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.text()).toBe(await first.text())
    })
  })

  describe('events', () => {
    // Last: it restarts the service, and a client's pooled connections do not survive that.
    it('records the item’s NewAsset event by its author', async () => {
      const { location } = await create(listUri(1), fixture('song'))
      const itemId = Number(location.split('=').at(-1))
      const events = await service.withStore(async (store) => {
        const author = (await store.users.find(melody.username))!
        return (await store.events.streamPage(author.id, null, 50)).filter((event) => event.objectType === 'ListItem' && event.objectId === itemId)
      })
      expect(events).toMatchObject([{ verb: 'NewAsset', objectType: 'ListItem', objectId: itemId }])
    })
  })
})
