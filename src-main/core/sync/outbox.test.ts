// The outbox table (migration 3) and its repository, on a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Drafts, LocalStore } from '../store'
import { Outbox } from './outbox'

describe('outbox', () => {
  let dir: string
  let store: LocalStore
  let outbox: Outbox
  let drafts: Drafts

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-outbox-'))
    store = LocalStore.open(join(dir, 'blogdesk.sqlite'))
    store.run("INSERT INTO accounts (id, atom_base, weblog_root, username, created_at) VALUES ('a', 'http://x', 'http://x/w', 'm', 'now')")
    outbox = new Outbox(store, Date.now)
    drafts = new Drafts(store)
  })

  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const post = (title: string) => ({ post: { title, content: '', categories: [] } })
  const add = (queueKey: string, draftId: string | null = null) =>
    outbox.add({ accountId: 'a', kind: 'post.update', queueKey, draftId, payload: post(queueKey) })

  it('hands out the oldest open operation of each queue, oldest queue first, and a new key per operation', () => {
    const first = add('weblog-2')
    const second = add('weblog-1')
    add('weblog-2')
    expect(outbox.heads().map((head) => head.id)).toEqual([first.id, second.id])
    outbox.markDone(outbox.markSending(first), { editUri: 'e', id: null, permalink: null, alreadyApplied: false })
    expect(outbox.heads().map((head) => head.queueKey)).toEqual(['weblog-1', 'weblog-2'])
    expect(new Set(outbox.open().map((operation) => operation.idempotencyKey)).size).toBe(2)
  })

  it('keeps its counts through every change, and through a transaction that rolls back', () => {
    const one = add('q')
    const two = add('q')
    const stopped = outbox.stop(outbox.markSending(one), { state: 'needs-attention', uncertain: false, lastError: 'refused' })
    expect(outbox.counts()).toEqual({ waiting: 1, needsAttention: 1 })
    expect(() =>
      store.transaction(() => {
        outbox.remove(two)
        throw new Error('power cut')
      }),
    ).toThrow('power cut')
    outbox.recount()
    expect(outbox.counts()).toEqual({ waiting: 1, needsAttention: 1 })
    expect(outbox.requeue(stopped)).toMatchObject({ state: 'queued', attempts: 0, idempotencyKey: one.idempotencyKey })
    expect(outbox.counts()).toEqual({ waiting: 2, needsAttention: 0 })
  })

  it('marks operations a killed run left mid-request as queued and uncertain', () => {
    const operation = add('q')
    outbox.markSending(operation)
    expect(new Outbox(store, Date.now).recoverInterrupted()).toBe(1)
    expect(outbox.get(operation.id)).toMatchObject({ state: 'queued', uncertain: true, attempts: 1 })
  })

  it('refuses to delete a draft with changes on their way, and deleting the account removes both', () => {
    const draft = drafts.create({ accountId: 'a', weblogPostUri: 'q', title: 'Kept' })
    add('q', draft.id)
    expect(() => store.run('DELETE FROM drafts WHERE id = :id', { id: draft.id })).toThrow(/FOREIGN KEY/)
    store.run("DELETE FROM accounts WHERE id = 'a'")
    expect(store.all('SELECT * FROM outbox')).toEqual([])
    expect(store.all('SELECT * FROM drafts')).toEqual([])
  })
})
