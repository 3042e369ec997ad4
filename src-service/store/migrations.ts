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
  {
    version: 3,
    name: 'weblog posts, categories and idempotency keys',
    // Feeds read a weblog's posts newest first by (issued, id), which posts_by_weblog serves without sorting.
    // Category names are unique per weblog whatever their (ASCII) case, as MT's are. An idempotency record keeps the
    // first response to a user's POST under its key for 24 hours; idempotency_keys_by_age finds the expired ones.
    sql: `
      CREATE TABLE posts (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        weblog_id    INTEGER NOT NULL REFERENCES weblogs (id) ON DELETE CASCADE,
        author_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title        TEXT NOT NULL,
        content      TEXT NOT NULL,
        content_kind TEXT NOT NULL CHECK (content_kind IN ('xhtml', 'text')),
        summary      TEXT,
        issued       TEXT NOT NULL,
        modified     TEXT NOT NULL,
        created      TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX posts_by_weblog ON posts (weblog_id, issued DESC, id DESC);
      CREATE TABLE categories (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        weblog_id INTEGER NOT NULL REFERENCES weblogs (id) ON DELETE CASCADE,
        name      TEXT NOT NULL COLLATE NOCASE,
        UNIQUE (weblog_id, name)
      );
      CREATE TABLE post_categories (
        post_id     INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
        category_id INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
        PRIMARY KEY (post_id, category_id)
      ) WITHOUT ROWID;
      CREATE INDEX post_categories_by_category ON post_categories (category_id);
      CREATE TABLE idempotency_keys (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key         TEXT NOT NULL,
        request     TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status      INTEGER NOT NULL,
        headers     TEXT NOT NULL,
        body        TEXT NOT NULL,
        created     TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created);
    `,
  },
  {
    version: 4,
    name: 'photo albums, photos and weblog uploads',
    // Each row names its files under <data-dir>/media (stored_name, thumbnail_name: made-up names, unique). An
    // upload's public name is unique per weblog (de-duplicated with _1, _2 …). Album pages list photos by when they
    // were taken, which photos_by_album serves.
    sql: `
      CREATE TABLE albums (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title      TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX albums_by_owner ON albums (owner_id);
      CREATE TABLE photos (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        album_id         INTEGER NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
        title            TEXT NOT NULL,
        caption          TEXT,
        filename         TEXT NOT NULL,
        media_type       TEXT NOT NULL,
        byte_size        INTEGER NOT NULL,
        sha256           TEXT NOT NULL,
        width            INTEGER NOT NULL,
        height           INTEGER NOT NULL,
        location         TEXT,
        latitude         REAL,
        longitude        REAL,
        taken            TEXT,
        keywords         TEXT NOT NULL DEFAULT '[]',
        camera           TEXT,
        issued           TEXT NOT NULL,
        stored_name      TEXT NOT NULL UNIQUE,
        thumbnail_name   TEXT NOT NULL UNIQUE,
        thumbnail_width  INTEGER NOT NULL,
        thumbnail_height INTEGER NOT NULL,
        created          TEXT NOT NULL
      );
      CREATE INDEX photos_by_album ON photos (album_id, coalesce(taken, issued), id);
      CREATE TABLE uploads (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        weblog_id   INTEGER NOT NULL REFERENCES weblogs (id) ON DELETE CASCADE,
        filename    TEXT NOT NULL,
        media_type  TEXT NOT NULL,
        byte_size   INTEGER NOT NULL,
        sha256      TEXT NOT NULL,
        stored_name TEXT NOT NULL UNIQUE,
        created     TEXT NOT NULL,
        UNIQUE (weblog_id, filename)
      );
    `,
  },
  {
    version: 5,
    name: 'typed lists and their items',
    // An item's details are one JSON object keyed by the element names of its list's type (store/lists.ts); its
    // title is computed from them, never stored. Pages read a list's items newest first by (issued, id).
    sql: `
      CREATE TABLE lists (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title      TEXT NOT NULL,
        type       TEXT NOT NULL CHECK (type IN ('music', 'books', 'people', 'links')),
        created_at TEXT NOT NULL DEFAULT ${now}
      );
      CREATE INDEX lists_by_owner ON lists (owner_id);
      CREATE TABLE list_items (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        list_id      INTEGER NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
        fields       TEXT NOT NULL CHECK (json_valid(fields) AND json_type(fields) = 'object'),
        rating       INTEGER CHECK (rating IS NULL OR (typeof(rating) = 'integer' AND rating BETWEEN 1 AND 5)),
        notes        TEXT,
        notes_format TEXT CHECK (notes_format IN ('text', 'xhtml')),
        issued       TEXT NOT NULL,
        created      TEXT NOT NULL,
        CHECK ((notes IS NULL) = (notes_format IS NULL))
      );
      CREATE INDEX list_items_by_list ON list_items (list_id, issued DESC, id DESC);
    `,
  },
]
