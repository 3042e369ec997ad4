// Look-ups made in one turn of the event loop, answered by one statement. On PostgreSQL every statement is a round
// trip that wakes a database process and then this one; under load many requests ask the same kind of question at
// once (the count of writes, a user's account), and each asking alone cost more than the answer. The batch leaves once
// the turn's I/O has been handled (setImmediate), so every look-up in it was asked before its statement was sent: the
// shared answer is at least as new as each would have had alone.
import { AsyncResource } from 'node:async_hooks'
import type { Engine } from './engine'

/** At most this many look-ups share one statement; more asked in one turn go in several. */
const MAX_BATCH = 128

interface Asked<Key, Value> {
  key: Key
  resolve: (value: Value) => void
  reject: (error: unknown) => void
}

export class TurnBatch<Key, Value> {
  readonly #db: Engine
  readonly #answer: (keys: readonly Key[]) => Promise<readonly Value[]>
  #asked: Asked<Key, Value>[] = []
  // Sent from the context the batch was made in (the store's, outside every transaction), never from the first
  // asker's: a statement must not join whatever transaction that asker happened to be in.
  readonly #sendLater = AsyncResource.bind(() => this.#send())

  /**
   * `answer` gets the keys asked in one turn, in order, and gives one value for each, in the same order, reading
   * through `db`.
   */
  constructor(db: Engine, answer: (keys: readonly Key[]) => Promise<readonly Value[]>) {
    this.#db = db
    this.#answer = answer
  }

  /**
   * The value for `key`, from the statement sent at the end of this turn; inside a transaction, from a statement of
   * its own in that transaction (which sees the transaction's own writes, and on SQLite is the only one that may run).
   */
  async get(key: Key): Promise<Value> {
    if (this.#db.inTransaction()) return this.#answerAlone(key)
    return new Promise((resolve, reject) => {
      if (this.#asked.length === 0) setImmediate(this.#sendLater)
      this.#asked.push({ key, resolve, reject })
    })
  }

  async #answerAlone(key: Key): Promise<Value> {
    const [value] = await this.#answer([key])
    return value!
  }

  #send(): void {
    const asked = this.#asked
    this.#asked = []
    for (let start = 0; start < asked.length; start += MAX_BATCH) void this.#answerPart(asked.slice(start, start + MAX_BATCH))
  }

  async #answerPart(part: readonly Asked<Key, Value>[]): Promise<void> {
    try {
      const values = await this.#answer(part.map((one) => one.key))
      if (values.length !== part.length) throw new Error(`A batch of ${part.length} look-ups was answered with ${values.length} values`)
      part.forEach((one, index) => one.resolve(values[index]!))
    } catch (error) {
      for (const one of part) one.reject(error)
    }
  }
}
