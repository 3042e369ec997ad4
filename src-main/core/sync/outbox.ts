// The outbox table (migration 3): operations in the order they were queued, each with the snapshot it sends, the
// Idempotency-Key it sends it under, and how far it got. The sync engine is its only writer.
import { randomUUID } from 'node:crypto'
import type { LocalStore, Row } from '../store'
import type { Operation, OperationKind, OperationPayloads, OperationResults, OperationState, OutboxCounts } from './operations'

export interface NewOperation<K extends OperationKind = OperationKind> {
  accountId: string
  kind: K
  queueKey: string
  draftId: string | null
  payload: OperationPayloads[K]
}

const OPEN = "state != 'done'"

export class Outbox {
  readonly #store: LocalStore
  readonly #now: () => number
  /** The queues that may hold open operations; found once at open, then kept up to date as operations come and go. */
  readonly #openQueues = new Set<string>()
  /**
   * Counting in SQL reads every open row (0.7 ms for a thousand here), too slow to do on every change, so the counts
   * are kept as the rows change. A transaction that rolls back must call `recount()`.
   */
  #counts: OutboxCounts | null = null

  constructor(store: LocalStore, now: () => number) {
    this.#store = store
    this.#now = now
    for (const row of store.all(`SELECT DISTINCT queue_key FROM outbox WHERE ${OPEN}`)) this.#openQueues.add(String(row['queue_key']))
  }

  add<K extends OperationKind>(operation: NewOperation<K>): Operation {
    const now = this.#timestamp()
    const { lastInsertRowid } = this.#store.run(
      `INSERT INTO outbox (account_id, queue_key, kind, draft_id, payload, idempotency_key, state, enqueued_at, updated_at)
       VALUES (:accountId, :queueKey, :kind, :draftId, :payload, :key, 'queued', :now, :now)`,
      { ...operation, payload: JSON.stringify(operation.payload), key: randomUUID(), now },
    )
    this.#openQueues.add(operation.queueKey)
    this.#tally(null, 'queued')
    return this.require(lastInsertRowid)
  }

  get(id: number): Operation | null {
    const row = this.#store.get('SELECT * FROM outbox WHERE id = :id', { id })
    return row && operationFromRow(row)
  }

  require(id: number): Operation {
    const operation = this.get(id)
    if (!operation) throw new Error(`Outbox operation ${id} is not in the local store.`)
    return operation
  }

  /** Operations not yet done, oldest first; of one account when given. */
  open(accountId?: string): Operation[] {
    const rows =
      accountId === undefined
        ? this.#store.all(`SELECT * FROM outbox WHERE ${OPEN} ORDER BY id`)
        : this.#store.all(`SELECT * FROM outbox WHERE ${OPEN} AND account_id = :accountId ORDER BY id`, { accountId })
    return rows.map(operationFromRow)
  }

  /** A draft's operations not yet done, oldest first. */
  openOfDraft(draftId: string): Operation[] {
    return this.#store.all(`SELECT * FROM outbox WHERE draft_id = :draftId AND ${OPEN} ORDER BY id`, { draftId }).map(operationFromRow)
  }

  /** The oldest operation not yet done of each queue, oldest first: the only one of its queue that may go. */
  heads(): Operation[] {
    const heads: Operation[] = []
    for (const queueKey of this.#openQueues) {
      const head = this.headOf(queueKey)
      if (head) heads.push(head)
      else this.#openQueues.delete(queueKey)
    }
    return heads.sort((a, b) => a.id - b.id)
  }

  headOf(queueKey: string): Operation | null {
    const row = this.#store.get(`SELECT * FROM outbox WHERE queue_key = :queueKey AND ${OPEN} ORDER BY id LIMIT 1`, { queueKey })
    return row && operationFromRow(row)
  }

  /** The open operation after `operation` in its queue. */
  nextAfter(operation: Operation): Operation | null {
    const row = this.#store.get(`SELECT * FROM outbox WHERE queue_key = :queueKey AND ${OPEN} AND id > :id ORDER BY id LIMIT 1`, {
      queueKey: operation.queueKey,
      id: operation.id,
    })
    return row && operationFromRow(row)
  }

  counts(): OutboxCounts {
    if (this.#counts === null) {
      const counts: OutboxCounts = { waiting: 0, needsAttention: 0 }
      for (const row of this.#store.all(`SELECT state, COUNT(*) AS n FROM outbox WHERE ${OPEN} GROUP BY state`)) {
        const bucket = bucketOf(String(row['state']) as OperationState)
        if (bucket) counts[bucket] += Number(row['n'])
      }
      this.#counts = counts
    }
    return { ...this.#counts }
  }

  /** Counts afresh next time: a transaction that changed rows was rolled back. */
  recount(): void {
    this.#counts = null
  }

  /** From this moment the request may reach the server, so the operation is uncertain until its outcome is known. */
  markSending(operation: Operation): Operation {
    const updatedAt = this.#timestamp()
    this.#store.run("UPDATE outbox SET state = 'sending', uncertain = 1, attempts = attempts + 1, updated_at = :updatedAt WHERE id = :id", {
      id: operation.id,
      updatedAt,
    })
    return this.#moved(operation, { state: 'sending', uncertain: true, attempts: operation.attempts + 1, updatedAt })
  }

  markDone<K extends OperationKind>(operation: Operation & { kind: K }, result: OperationResults[K]): Operation {
    const updatedAt = this.#timestamp()
    this.#store.run(
      "UPDATE outbox SET state = 'done', uncertain = 0, last_error = NULL, result = :result, updated_at = :updatedAt WHERE id = :id",
      { id: operation.id, result: JSON.stringify(result), updatedAt },
    )
    return this.#moved(operation, { state: 'done', uncertain: false, lastError: null, result, updatedAt })
  }

  /** Back to the queue, to be tried again at `nextAttemptAt`. */
  reschedule(operation: Operation, change: { nextAttemptAt: number; uncertain: boolean; lastError: string | null }): Operation {
    const updatedAt = this.#timestamp()
    this.#store.run(
      `UPDATE outbox SET state = 'queued', next_attempt_at = :nextAttemptAt, uncertain = :uncertain, last_error = :lastError,
         updated_at = :updatedAt WHERE id = :id`,
      { id: operation.id, ...change, uncertain: change.uncertain ? 1 : 0, updatedAt },
    )
    return this.#moved(operation, { state: 'queued', ...change, updatedAt })
  }

  /** Stops the operation (and so its queue) until the person retries or discards it. */
  stop(operation: Operation, change: { state: 'needs-attention' | 'conflict'; uncertain: boolean; lastError: string | null }): Operation {
    const updatedAt = this.#timestamp()
    this.#store.run(
      'UPDATE outbox SET state = :state, uncertain = :uncertain, last_error = :lastError, updated_at = :updatedAt WHERE id = :id',
      { id: operation.id, ...change, uncertain: change.uncertain ? 1 : 0, updatedAt },
    )
    return this.#moved(operation, { ...change, updatedAt })
  }

  /**
   * Queues a stopped operation again, due at once. With a new payload it is a new request: it gets a new
   * Idempotency-Key, since a key stands for one request body.
   */
  requeue<K extends OperationKind>(operation: Operation & { kind: K }, payload?: OperationPayloads[K]): Operation {
    const updatedAt = this.#timestamp()
    const replaced = payload === undefined ? {} : { payload, idempotencyKey: randomUUID() }
    this.#store.run(
      `UPDATE outbox SET state = 'queued', next_attempt_at = 0, last_error = NULL, attempts = 0, updated_at = :updatedAt,
         payload = COALESCE(:payload, payload), idempotency_key = COALESCE(:key, idempotency_key) WHERE id = :id`,
      {
        id: operation.id,
        payload: payload === undefined ? null : JSON.stringify(payload),
        key: replaced.idempotencyKey ?? null,
        updatedAt,
      },
    )
    return this.#moved(operation, { state: 'queued', nextAttemptAt: 0, lastError: null, attempts: 0, updatedAt, ...replaced })
  }

  remove(operation: Operation): void {
    this.#store.run('DELETE FROM outbox WHERE id = :id', { id: operation.id })
    this.#tally(operation.state, null)
  }

  /** Makes every queued operation due now (the network came back, or the person asked). */
  makeAllDue(): void {
    this.#store.run("UPDATE outbox SET next_attempt_at = 0 WHERE state = 'queued' AND next_attempt_at > 0")
  }

  /** Makes the queue's waiting operations due now: its server answers again. */
  makeQueueDue(queueKey: string): void {
    this.#store.run("UPDATE outbox SET next_attempt_at = 0 WHERE state = 'queued' AND queue_key = :queueKey AND next_attempt_at > 0", { queueKey })
  }

  /** How many operations wait (queued or being sent) in each queue that has any. */
  waitingByQueue(): Map<string, number> {
    const rows = this.#store.all("SELECT queue_key, COUNT(*) AS n FROM outbox WHERE state IN ('queued', 'sending') GROUP BY queue_key")
    return new Map(rows.map((row) => [String(row['queue_key']), Number(row['n'])]))
  }

  /**
   * Operations an earlier run left in `sending` (it stopped or was killed mid-request) go back to the queue. They
   * stay uncertain: the server may have them.
   */
  recoverInterrupted(): number {
    return this.#store.run("UPDATE outbox SET state = 'queued', next_attempt_at = 0, uncertain = 1 WHERE state = 'sending'").changes
  }

  /** Forgets operations done before `before`: the drafts keep where their posts went. */
  forgetDone(before: number): void {
    this.#store.run("DELETE FROM outbox WHERE state = 'done' AND updated_at < :before", { before: new Date(before).toISOString() })
  }

  hasAccount(accountId: string): boolean {
    return this.#store.get('SELECT 1 FROM accounts WHERE id = :accountId', { accountId }) !== null
  }

  /** Whether a draft other than `draftId` already stands for the post at `editUri`. */
  isClaimed(editUri: string, draftId: string | null): boolean {
    return (
      this.#store.get('SELECT 1 FROM drafts WHERE remote_edit_uri = :editUri AND id IS NOT :draftId LIMIT 1', { editUri, draftId }) !==
      null
    )
  }

  /**
   * The operation after a change, with the counts kept: `operation` is the one the caller just read, so its state is
   * the row's (the engine is the only writer).
   */
  #moved(operation: Operation, change: { state?: OperationState; [field: string]: unknown }): Operation {
    const moved = { ...operation, ...change } as Operation
    this.#tally(operation.state, moved.state)
    return moved
  }

  #tally(from: OperationState | null, to: OperationState | null): void {
    if (this.#counts === null) return
    const was = from && bucketOf(from)
    const becomes = to && bucketOf(to)
    if (was) this.#counts[was]--
    if (becomes) this.#counts[becomes]++
  }

  #timestamp(): string {
    return new Date(this.#now()).toISOString()
  }
}

function bucketOf(state: OperationState): keyof OutboxCounts | null {
  switch (state) {
    case 'queued':
    case 'sending':
      return 'waiting'
    case 'needs-attention':
    case 'conflict':
      return 'needsAttention'
    case 'done':
      return null
  }
}

function operationFromRow(row: Row): Operation {
  const result = row['result']
  const lastError = row['last_error']
  const draftId = row['draft_id']
  return {
    id: Number(row['id']),
    accountId: String(row['account_id']),
    kind: String(row['kind']) as OperationKind,
    queueKey: String(row['queue_key']),
    draftId: draftId === null || draftId === undefined ? null : String(draftId),
    payload: JSON.parse(String(row['payload'])) as never,
    idempotencyKey: String(row['idempotency_key']),
    state: String(row['state']) as OperationState,
    uncertain: Number(row['uncertain']) === 1,
    attempts: Number(row['attempts']),
    nextAttemptAt: Number(row['next_attempt_at']),
    lastError: lastError === null || lastError === undefined ? null : String(lastError),
    result: result === null || result === undefined ? null : (JSON.parse(String(result)) as never),
    enqueuedAt: String(row['enqueued_at']),
    updatedAt: String(row['updated_at']),
  } as Operation
}
