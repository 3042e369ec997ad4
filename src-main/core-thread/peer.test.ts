// Calls and messages between two peers over a real message channel: what one side sends in a turn arrives in order
// as one message, and a listener that throws costs nothing that came with it.
import { MessageChannel } from 'node:worker_threads'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { Peer } from './peer'

let channel: MessageChannel
let core: Peer
let main: Peer

beforeEach(() => {
  channel = new MessageChannel()
  core = new Peer(channel.port1)
  main = new Peer(channel.port2)
})

afterEach(() => {
  channel.port1.close()
  channel.port2.close()
})

it('sends what one turn told and answered together, in order', async () => {
  const heard: string[] = []
  main.listen<string>('event', (payload) => heard.push(payload))
  core.serve({ save: () => 'saved' })
  let messages = 0
  channel.port2.on('message', () => messages++)

  const answer = main.ask<string>('save')
  // The call is answered in a later turn than the events told in this one, which arrive first and in order.
  core.tell('event', 'drafts:changed')
  core.tell('event', 'outbox:changed')
  core.tell('event', 'app:statusChanged')
  const saved = await answer
  expect(saved).toBe('saved')
  expect(heard).toEqual(['drafts:changed', 'outbox:changed', 'app:statusChanged'])
  expect(messages, 'the three events crossed as one message, the answer as another').toBe(2)
})

it('delivers the rest of a turn when a listener throws, and the error still surfaces', async () => {
  const heard: string[] = []
  main.listen<string>('event', (payload) => {
    if (payload === 'bad') throw new Error('a listener failed')
    heard.push(payload)
  })
  const surfaced = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve))
  core.tell('event', 'before')
  core.tell('event', 'bad')
  core.tell('event', 'after')
  expect(await surfaced).toMatchObject({ message: 'a listener failed' })
  await expect.poll(() => heard).toEqual(['before', 'after'])
})
