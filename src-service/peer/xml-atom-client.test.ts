// A real third-party client, not ours: Debian's Perl XML::Atom::Client must be able to read the root listing.
import { describe, expect, it } from 'vitest'
import { ATOM_MEDIA_TYPE } from '../../src-protocol'
import { perlPeer } from './perl-peer'

describe('XML::Atom::Client (libxml-atom-perl)', () => {
  const peer = perlPeer('xml-atom-root.pl', ['XML::Atom::Client'])

  it('reads the demo account’s weblogs from the root listing', async () => {
    const links = await peer.run()
    const blog = `${peer.origin}/t/atom/weblog/blog_id=1`
    expect(links.slice(0, 6)).toEqual([
      ['service.post', blog, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.feed', blog, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.upload', `${blog}/svc=upload`, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['service.categories', `${blog}/svc=categories`, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['x-blogdesk.scheduling', blog, ATOM_MEDIA_TYPE, 'Valse de Melody'],
      ['alternate', `${peer.origin}/blogs/valse-de-melody/`, 'text/html', 'Valse de Melody'],
    ])
    expect(links.slice(6).map(([rel, , , title]) => `${rel} ${title}`)).toEqual([
      "service.post L'hôtel particulier",
      "service.feed L'hôtel particulier",
      "service.upload L'hôtel particulier",
      "service.categories L'hôtel particulier",
      "x-blogdesk.scheduling L'hôtel particulier",
      "alternate L'hôtel particulier",
    ])
  })

  it('fails, and says why, with a wrong password', async () => {
    const run = peer.run({ username: 'melody', password: 'wrong' })
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('401') })
  })
})
