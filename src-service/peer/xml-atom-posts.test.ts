// A real third-party client, not ours: Debian's Perl XML::Atom::Client publishes, edits and deletes a post on the
// demo weblog, and reads its feed and categories (it insists on 201 for POST and 200 for PUT and DELETE).
import { describe, expect, it } from 'vitest'
import { NS } from '../../src-protocol'
import { perlPeer } from './perl-peer'

describe('XML::Atom::Client (libxml-atom-perl) publishing session', () => {
  const peer = perlPeer('xml-atom-posts.pl', ['XML::Atom::Client', 'XML::LibXML'])

  it('lists, reads the feed, creates, reads, updates, reads, deletes and reads the categories', async () => {
    const steps = await peer.run()
    const blog = `${peer.origin}/t/atom/weblog/blog_id=1`

    expect(steps.map(([name]) => name)).toEqual(['root', 'feed', 'create', 'get', 'update', 'get', 'delete', 'gone', 'categories'])
    const [root, feed, create, got, update, gotAgain, deleted, gone, categories] = steps
    expect(root).toEqual(['root', blog, blog, `${blog}/svc=categories`])
    expect(feed).toEqual(['feed', 'Valse de Melody', '20', `${blog}/offset=20`])
    expect(create![1]).toMatch(new RegExp(`^${blog}/entry_id=\\d+$`))
    const [, title, subjects, body, issued] = got!
    expect([title, subjects, body]).toEqual(['Hello from XML::Atom::Client', 'Music', '<p>First body, <b>bold</b> &amp; ampersand.</p>'])
    expect(issued).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(update).toEqual(['update', 'ok'])
    // The edit kept what the client sent back unchanged: the category and the date.
    expect(gotAgain).toEqual(['get', 'Hello again (edited)', 'Music', '<p>Edited body.</p>', issued])
    expect(deleted).toEqual(['delete', 'ok'])
    expect(gone![1]).toMatch(/404/)
    expect(categories![1]).toBe(`${NS.category} categories`)
    expect(categories![2]!.split(',')).toEqual(expect.arrayContaining(['Music', 'Travel', 'Photography', 'Notes']))
  })
})
