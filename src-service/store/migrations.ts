// Numbered migrations, applied in order, each in its own transaction. Never edit one that has shipped: add the next.
export interface Migration {
  version: number
  name: string
  sql: string
}

const now = `(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))`

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'users, weblogs, applications and API keys',
    // AUTOINCREMENT where ids appear in URLs, so a deleted weblog's URLs never start pointing at a new one.
    sql: `
      CREATE TABLE users (
        id                  INTEGER PRIMARY KEY AUTOINCREMENT,
        username            TEXT NOT NULL UNIQUE COLLATE NOCASE,
        display_name        TEXT NOT NULL,
        login_password_hash TEXT NOT NULL,
        api_password_sealed BLOB NOT NULL,
        created_at          TEXT NOT NULL DEFAULT ${now}
      );
      CREATE TABLE weblogs (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title      TEXT NOT NULL,
        slug       TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX weblogs_by_owner ON weblogs (owner_id);
      CREATE TABLE applications (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT ${now}
      );
      CREATE TABLE api_keys (
        api_key        TEXT PRIMARY KEY,
        application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        created_at     TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX api_keys_by_application ON api_keys (application_id);
    `,
  },
  {
    version: 2,
    name: 'events',
    // An event says that an actor did a verb to an object (spec §2.4). Streams read one actor's events newest first
    // and page by (published, id), which the index serves without sorting.
    sql: `
      CREATE TABLE events (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        url_id      TEXT NOT NULL UNIQUE,
        actor_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        verb        TEXT NOT NULL CHECK (verb IN ('NewAsset', 'AddedFavorite', 'AddedNeighbor')),
        object_type TEXT NOT NULL CHECK (object_type IN ('Post', 'Comment', 'Photo', 'ListItem', 'User')),
        object_id   INTEGER NOT NULL,
        published   TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX events_by_actor ON events (actor_id, published DESC, id DESC);
      CREATE INDEX events_by_object ON events (object_type, object_id);
    `,
  },
]
