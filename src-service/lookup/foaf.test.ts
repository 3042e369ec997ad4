import { describe, expect, it } from 'vitest'
import { XmlError } from '../../src-protocol'
import { discoverFoaf, readFoafPerson } from './foaf'

const RDF_OPEN = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/">`

describe('discoverFoaf', () => {
  it('finds the FOAF link of a page and makes it absolute', () => {
    const html = `<link rel="alternate" type="application/rss+xml" href="/feed">
      <link rel="meta" type="application/rdf+xml" title="Other" href="/other.rdf">
      <link rel="Meta" type="application/rdf+xml" title="FOAF" href="foaf.rdf">`
    expect(discoverFoaf(html, 'http://example.org/~ana/')).toBe('http://example.org/~ana/foaf.rdf')
  })

  it('takes an untitled meta RDF link when none is titled FOAF, and nothing that is not one', () => {
    expect(discoverFoaf('<link rel="meta" type="application/rdf+xml" href="/me.rdf">', 'http://example.org/')).toBe(
      'http://example.org/me.rdf',
    )
    expect(discoverFoaf('<link rel="stylesheet" href="/me.rdf">', 'http://example.org/')).toBeNull()
    expect(discoverFoaf('<link rel="meta" type="application/rdf+xml" href="javascript:alert(1)">', 'http://example.org/')).toBeNull()
  })
})

describe('readFoafPerson', () => {
  it('reads the primary topic of a profile document: name, first mailto: mbox, homepage', () => {
    const xml = `${RDF_OPEN}
      <foaf:PersonalProfileDocument rdf:about=""><foaf:primaryTopic rdf:resource="#me"/></foaf:PersonalProfileDocument>
      <foaf:Person rdf:about="#friend"><foaf:name>A Friend</foaf:name></foaf:Person>
      <foaf:Person rdf:ID="me">
        <foaf:name> Ana  Lopez </foaf:name>
        <foaf:mbox_sha1sum>0123</foaf:mbox_sha1sum>
        <foaf:mbox rdf:resource="mailto:ana%40example.org"/>
        <foaf:homepage rdf:resource="/~ana/"/>
        <foaf:knows><foaf:Person><foaf:name>Someone Else</foaf:name></foaf:Person></foaf:knows>
      </foaf:Person>
    </rdf:RDF>`
    expect(readFoafPerson(xml, 'http://example.org/foaf.rdf', null)).toEqual({
      name: 'Ana Lopez',
      email: 'ana@example.org',
      homepage: 'http://example.org/~ana/',
    })
  })

  it('picks the person whose homepage was asked about, from typed descriptions too; nick stands in for a name', () => {
    const xml = `${RDF_OPEN}
      <rdf:Description><rdf:type rdf:resource="http://xmlns.com/foaf/0.1/Person"/><foaf:nick>first</foaf:nick></rdf:Description>
      <rdf:Description foaf:nick="bo">
        <rdf:type rdf:resource="http://xmlns.com/foaf/0.1/Person"/>
        <foaf:homepage rdf:resource="http://bo.example/"/>
      </rdf:Description>
    </rdf:RDF>`
    expect(readFoafPerson(xml, 'http://bo.example/foaf.rdf', 'http://bo.example/')).toEqual({
      name: 'bo',
      homepage: 'http://bo.example/',
    })
  })

  it('reads a document whose root is the person, by namespace whatever the prefixes', () => {
    const xml = `<P:Person xmlns:P="http://xmlns.com/foaf/0.1/"><P:givenName>Cy</P:givenName><P:familyName>Twombly</P:familyName></P:Person>`
    expect(readFoafPerson(xml, 'http://cy.example/foaf.rdf', null)).toEqual({ name: 'Cy Twombly' })
  })

  it('gives null when no person is described', () => {
    expect(readFoafPerson(`${RDF_OPEN}<foaf:Document rdf:about="x"/></rdf:RDF>`, 'http://x.example/', null)).toBeNull()
  })

  it('refuses a DOCTYPE, so no entity can expand or reach out', () => {
    const xml = `<!DOCTYPE rdf:RDF [<!ENTITY x SYSTEM "file:///etc/passwd">]>${RDF_OPEN}<foaf:Person><foaf:name>&x;</foaf:name></foaf:Person></rdf:RDF>`
    expect(() => readFoafPerson(xml, 'http://x.example/', null)).toThrow(XmlError)
  })
})
