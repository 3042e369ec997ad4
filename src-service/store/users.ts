import type { WsseAccount } from '../../src-protocol'
import { insertReturningId, textList } from './dialect'
import type { Engine, Row } from './engine'
import { hashPassword } from './passwords'
import type { SecretBox } from './secret-box'
import { TurnBatch } from './turn-batch'

export interface User {
  id: number
  username: string
  displayName: string
}

export interface NewUser {
  username: string
  displayName: string
  /** For signing in to the service's own pages; kept only as a hash. */
  loginPassword: string
  /** For WSSE, separate from the login password so it can be replaced without touching it; kept encrypted. */
  apiPassword: string
}

export class Users {
  readonly #db: Engine
  readonly #secrets: SecretBox
  /** Read in place of a row for a username nobody has, so the answer takes as long as for a real user. */
  readonly #decoy: Row
  /** Every signed request looks its user up first: those arriving together share one statement. */
  readonly #accountRows: TurnBatch<string, Row>

  constructor(db: Engine, secrets: SecretBox) {
    this.#db = db
    this.#secrets = secrets
    this.#accountRows = new TurnBatch(db, (usernames) => this.#readAccounts(usernames))
    const decoyPassword = secrets.seal('decoy API password of the same length as a real one')
    this.#decoy = { id: 0, username: '', display_name: 'Nobody', api_password_sealed: decoyPassword }
  }

  async add(user: NewUser): Promise<User> {
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO users (username, display_name, login_password_hash, api_password_sealed)
       VALUES (:username, :displayName, :loginPasswordHash, :apiPasswordSealed)`,
      {
        ':username': user.username,
        ':displayName': user.displayName,
        ':loginPasswordHash': hashPassword(user.loginPassword),
        ':apiPasswordSealed': this.#secrets.seal(user.apiPassword),
      },
    )
    return { id, username: user.username, displayName: user.displayName }
  }

  /**
   * Usernames match exactly. (They are unique without regard to case, so no two look alike; but the WSSE nonce
   * ledger is kept per username as sent, and a case-blind match would let a replay through as "Melody".) The column
   * compares without case in both databases, so the exact spelling is checked here.
   */
  async find(username: string): Promise<User | null> {
    const row = await this.#spelledExactly(username, 'id, username, display_name')
    return row && toUser(row)
  }

  /** The user's API password (for the demo's sandbox.json), or null when there is no such user. */
  async apiPasswordOf(username: string): Promise<string | null> {
    return (await this.wsseAccountOf(username))?.apiPassword ?? null
  }

  /**
   * The user and their API password, in one look-up, for the WSSE verifier. Null when there is no such user, after the
   * same work as for one: the timing tells nobody which names exist.
   */
  async wsseAccountOf(username: string): Promise<WsseAccount<User> | null> {
    const row = await this.#accountRows.get(username)
    const found = row?.['username'] === username ? row : null
    const read = found ?? this.#decoy
    const account = { apiPassword: this.#secrets.open(read['api_password_sealed'] as Uint8Array), account: toUser(read) }
    return found && account
  }

  /** One row for each username asked, in order, its columns empty for a name nobody has: it costs the same either way. */
  async #readAccounts(usernames: readonly string[]): Promise<Row[]> {
    return this.#db.all(
      `SELECT users.id, users.username, users.display_name, users.api_password_sealed
       FROM (${textList(this.#db.dialect, ':usernames')}) AS asked LEFT JOIN users ON users.username = asked.value
       ORDER BY asked.place`,
      { ':usernames': JSON.stringify(usernames) },
    )
  }

  async #spelledExactly(username: string, columns: string): Promise<Row | null> {
    const row = await this.#db.get(`SELECT ${columns} FROM users WHERE username = :username`, { ':username': username })
    return row && row['username'] === username ? row : null
  }
}

function toUser(row: Row): User {
  return { id: Number(row['id']), username: String(row['username']), displayName: String(row['display_name']) }
}
