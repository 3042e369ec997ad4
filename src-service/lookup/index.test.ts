// How a service is told about lookups: the command line's flags and the checks made when it starts.
import { describe, expect, it } from 'vitest'
import { parseArguments } from '../server'
import { SetupError } from '../setup-error'
import { HttpCatalogue, LocalCatalogue } from './catalogue'
import { createLookups } from './index'

describe('lookup options', () => {
  it('reads --lookup-allow as a comma-separated list and --isbn-provider as a URL template', () => {
    const options = parseArguments([
      '--port', '0', '--data-dir', '/tmp/x',
      '--lookup-allow', 'catalogue.lan, 192.168.1.20,',
      '--isbn-provider=https://catalogue.lan/isbn/{isbn}.json',
    ])
    expect(options.lookup).toEqual({
      allowHosts: ['catalogue.lan', '192.168.1.20'],
      isbnProviderUrl: 'https://catalogue.lan/isbn/{isbn}.json',
    })
    expect(() => parseArguments(['--port', '0', '--data-dir', '/tmp/x', '--lookup-allow'])).toThrow(/--lookup-allow needs a value/)
  })

  it('uses the local catalogue unless an HTTP one is configured', () => {
    expect(createLookups().books).toBeInstanceOf(LocalCatalogue)
    expect(createLookups({ isbnProviderUrl: 'https://catalogue.example/{isbn}' }).books).toBeInstanceOf(HttpCatalogue)
  })

  it('refuses at start what cannot work: a catalogue URL without {isbn}, limits that are not positive', () => {
    expect(() => createLookups({ isbnProviderUrl: 'https://catalogue.example/' })).toThrow(SetupError)
    expect(() => createLookups({ timeoutMs: 0 })).toThrow(/must be positive/)
    expect(() => createLookups({ maxBytes: -1 })).toThrow(/must be positive/)
  })
})
