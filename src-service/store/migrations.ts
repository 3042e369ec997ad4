// Numbered migrations, applied in order, each in its own transaction. Never edit one that has shipped: add the next.
import type { Migration } from '../../src-shared/sqlite'

export type { Migration }

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
  {
    version: 6,
    name: 'social graph: url ids, profiles, groups, relationships, favourites, comments, events in groups',
    // The JSON interface names every object by an opaque url id (spec §2.4). Triggers give each new row one in the
    // inserting transaction, whoever inserts it, and take it away on delete together with the events about the row,
    // so no stream can show an event whose object is gone. event_totals keeps each actor's event count, so a stream's
    // exact totalResults is one row read instead of a scan. Group streams read events_by_actor_in_group; the group an
    // asset was published in is that of its first NewAsset event, which events_creating_object finds.
    sql: `
      CREATE TABLE url_ids (
        object_type TEXT NOT NULL,
        object_id   INTEGER NOT NULL,
        url_id      TEXT NOT NULL UNIQUE,
        PRIMARY KEY (object_type, object_id)
      ) WITHOUT ROWID;
      CREATE TABLE user_profiles (
        user_id      INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        about_me     TEXT,
        location     TEXT,
        interests    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(interests) AND json_type(interests) = 'array'),
        avatar_color TEXT CHECK (avatar_color GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')
      );
      CREATE TABLE groups (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        display_name TEXT NOT NULL,
        tagline      TEXT,
        site_url     TEXT,
        created      TEXT NOT NULL DEFAULT ${now}
      );
      CREATE TABLE group_memberships (
        group_id INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role     TEXT NOT NULL CHECK (role IN ('Admin', 'Member')),
        created  TEXT NOT NULL,
        PRIMARY KEY (group_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX group_memberships_by_user ON group_memberships (user_id, created);
      CREATE TABLE relationships (
        source_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        target_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind      TEXT NOT NULL CHECK (kind IN ('neighbor', 'friend')),
        created   TEXT NOT NULL,
        PRIMARY KEY (source_id, kind, target_id),
        CHECK (source_id <> target_id)
      ) WITHOUT ROWID;
      CREATE INDEX relationships_by_target ON relationships (target_id, kind);
      CREATE TABLE favorites (
        user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        PRIMARY KEY (user_id, post_id)
      ) WITHOUT ROWID;
      CREATE INDEX favorites_by_post ON favorites (post_id);
      CREATE TABLE comments (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        post_id     INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
        author_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        in_reply_to INTEGER REFERENCES comments (id) ON DELETE SET NULL,
        content     TEXT NOT NULL,
        text_format TEXT NOT NULL CHECK (text_format IN ('html', 'html_convert_linebreaks')),
        published   TEXT NOT NULL
      );
      CREATE INDEX comments_by_post ON comments (post_id, published, id);
      CREATE INDEX comments_by_parent ON comments (in_reply_to) WHERE in_reply_to IS NOT NULL;

      ALTER TABLE events ADD COLUMN group_id INTEGER REFERENCES groups (id) ON DELETE SET NULL;
      CREATE INDEX events_by_actor_in_group ON events (actor_id, group_id, published DESC, id DESC);
      CREATE INDEX events_creating_object ON events (object_type, object_id) WHERE verb = 'NewAsset';
      ${[
        urlIdTriggers('users', 'User', '6p', 8),
        urlIdTriggers('groups', 'Group', '6p', 8),
        urlIdTriggers('applications', 'Application', '6p', 8),
        urlIdTriggers('weblogs', 'Blog', '6a', 16),
        urlIdTriggers('posts', 'Post', '6a', 16),
        urlIdTriggers('comments', 'Comment', '6a', 16),
        urlIdTriggers('albums', 'Album', '6a', 16),
        urlIdTriggers('photos', 'Photo', '6a', 16),
        urlIdTriggers('lists', 'List', '6a', 16),
        urlIdTriggers('list_items', 'ListItem', '6a', 16),
      ].join('\n')}

      CREATE TABLE event_totals (
        actor_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        total    INTEGER NOT NULL
      );
      INSERT INTO event_totals (actor_id, total) SELECT actor_id, count(*) FROM events GROUP BY actor_id;
      CREATE TRIGGER events_counted AFTER INSERT ON events BEGIN
        INSERT INTO event_totals (actor_id, total) VALUES (new.actor_id, 1)
          ON CONFLICT (actor_id) DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER events_uncounted AFTER DELETE ON events BEGIN
        UPDATE event_totals SET total = total - 1 WHERE actor_id = old.actor_id;
      END;
    `,
  },
  {
    version: 7,
    name: 'OAuth consumer secrets, request and access tokens, nonces',
    // Secrets are sealed (store/secret-box.ts): a signature is checked by recomputing it from them. A request token
    // is approved by a user (who then has a verifier) and exchanged once for an access token, the AuthToken's
    // authToken. A nonce is unique per API key; rows older than the timestamp window are swept by timestamp.
    sql: `
      CREATE TABLE oauth_consumers (
        api_key       TEXT PRIMARY KEY REFERENCES api_keys (api_key) ON DELETE CASCADE,
        secret_sealed BLOB NOT NULL,
        created       TEXT NOT NULL DEFAULT ${now}
      );
      CREATE TABLE oauth_request_tokens (
        token            TEXT PRIMARY KEY,
        secret_sealed    BLOB NOT NULL,
        api_key          TEXT NOT NULL REFERENCES api_keys (api_key) ON DELETE CASCADE,
        callback         TEXT NOT NULL,
        state            TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'denied', 'exchanged')),
        user_id          INTEGER REFERENCES users (id) ON DELETE CASCADE,
        verifier         TEXT,
        sign_in_attempts INTEGER NOT NULL DEFAULT 0,
        failed_verifiers INTEGER NOT NULL DEFAULT 0,
        created          TEXT NOT NULL,
        expires          TEXT NOT NULL,
        CHECK ((state IN ('approved', 'exchanged')) = (user_id IS NOT NULL AND verifier IS NOT NULL))
      );
      CREATE INDEX oauth_request_tokens_by_expiry ON oauth_request_tokens (expires);
      CREATE TABLE oauth_access_tokens (
        token         TEXT PRIMARY KEY,
        api_key       TEXT NOT NULL REFERENCES api_keys (api_key) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        secret_sealed BLOB NOT NULL,
        created       TEXT NOT NULL DEFAULT ${now},
        revoked       TEXT
      );
      CREATE INDEX oauth_access_tokens_by_grant ON oauth_access_tokens (api_key, user_id);
      CREATE TABLE oauth_nonces (
        api_key   TEXT NOT NULL,
        nonce     TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        PRIMARY KEY (api_key, nonce)
      ) WITHOUT ROWID;
      CREATE INDEX oauth_nonces_by_timestamp ON oauth_nonces (timestamp);
    `,
  },
  {
    version: 8,
    name: 'scheduled posts',
    // A post dated in the future when it was stored waits, off public pages and out of the events, until its date
    // (routes/scheduled-posts.ts); `scheduled` says its NewAsset event is still to be recorded.
    sql: `
      ALTER TABLE posts ADD COLUMN scheduled INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX posts_scheduled_by_issued ON posts (issued) WHERE scheduled = 1;
    `,
  },
  {
    version: 9,
    name: 'state shared by instances: WSSE nonces, sign-in failures, service keys',
    // What an instance kept in memory or in its data dir, so that several instances on one PostgreSQL database agree
    // (store/shared-state.ts). One schema on both engines: SQLite keeps its WSSE nonces in memory and its key in the
    // key file, as one process owns the file (ARCHITECTURE.md says why and what it measured).
    sql: `
      CREATE TABLE wsse_nonces (
        username   TEXT NOT NULL,
        nonce      TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (username, nonce)
      ) WITHOUT ROWID;
      CREATE INDEX wsse_nonces_by_user_expiry ON wsse_nonces (username, expires_at);
      CREATE INDEX wsse_nonces_by_expiry ON wsse_nonces (expires_at);
      CREATE TABLE sign_in_failures (
        subject      TEXT PRIMARY KEY,
        failures     INTEGER NOT NULL,
        last_failure INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_failure);
      CREATE TABLE service_keys (
        name TEXT PRIMARY KEY,
        key  BLOB NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    name: 'OAuth nonces bounded per holder',
    // A nonce's holder is the token it was signed with, or the client's address without one: each holder may keep
    // a bounded number in the timestamp window (auth/oauth.ts), so one client cannot fill the table for the rest.
    sql: `
      ALTER TABLE oauth_nonces ADD COLUMN holder TEXT NOT NULL DEFAULT '';
      CREATE INDEX oauth_nonces_by_holder ON oauth_nonces (api_key, holder, timestamp);
    `,
  },
  {
    version: 11,
    name: 'event totals counted at commit',
    // PostgreSQL's change (a lock held for less time); SQLite writes one transaction at a time, so it has none to make.
    sql: '-- nothing to change on SQLite',
  },
  {
    version: 12,
    name: 'nonces kept without the write-ahead log',
    // PostgreSQL's change; SQLite keeps WSSE nonces in memory and OAuth's in its one file, as before.
    sql: '-- nothing to change on SQLite',
  },
]

/**
 * Migration 6's url ids for `table`'s rows, as `kind`: `<prefix>` and random hex, given to the rows there are and by
 * trigger to each new one; deleting a row deletes its url id and the events whose object it was. Events about a row
 * that is already gone (a post deleted before this migration) are dropped here too.
 */
function urlIdTriggers(table: string, kind: string, prefix: '6p' | '6a', randomBytes: number): string {
  const urlId = `'${prefix}' || lower(hex(randomblob(${randomBytes})))`
  return `
      INSERT INTO url_ids (object_type, object_id, url_id) SELECT '${kind}', id, ${urlId} FROM ${table};
      DELETE FROM events WHERE object_type = '${kind}' AND object_id NOT IN (SELECT id FROM ${table});
      CREATE TRIGGER ${table}_url_id AFTER INSERT ON ${table} BEGIN
        INSERT INTO url_ids (object_type, object_id, url_id) VALUES ('${kind}', new.id, ${urlId});
      END;
      CREATE TRIGGER ${table}_forgotten AFTER DELETE ON ${table} BEGIN
        DELETE FROM url_ids WHERE object_type = '${kind}' AND object_id = old.id;
        DELETE FROM events WHERE object_type = '${kind}' AND object_id = old.id;
      END;`
}
