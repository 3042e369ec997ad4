// Numbered migrations, applied in order, each in its own transaction. Never edit one that has shipped: add the next.
import type { Migration } from '../../../src-shared/sqlite'

export type { Migration }

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts',
    sql: `
      CREATE TABLE accounts (
        id          TEXT PRIMARY KEY,
        atom_base   TEXT NOT NULL,
        weblog_root TEXT NOT NULL,
        username    TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        UNIQUE (weblog_root, username)
      );
    `,
  },
  {
    version: 2,
    name: 'drafts, revisions and caches',
    sql: `
      CREATE TABLE drafts (
        id                       TEXT PRIMARY KEY,
        account_id               TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        weblog_post_uri          TEXT NOT NULL,
        title                    TEXT NOT NULL,
        content                  TEXT NOT NULL,
        categories               TEXT NOT NULL, -- JSON array of category names
        state                    TEXT NOT NULL CHECK (state IN ('draft', 'queued', 'sending', 'published',
                                   'needs-attention', 'conflict', 'deleting', 'deleted')),
        remote_edit_uri          TEXT,
        remote_id                TEXT,
        remote_permalink         TEXT,
        remote_base_modified     TEXT,
        remote_base_content_hash TEXT,
        conflict_server          TEXT,          -- JSON: the server's copy, kept beside ours until the person decides
        conflict_detected_at     TEXT,
        last_error               TEXT,
        created_at               TEXT NOT NULL,
        updated_at               TEXT NOT NULL
      );
      CREATE INDEX drafts_by_weblog ON drafts (account_id, weblog_post_uri, updated_at);

      CREATE TABLE draft_revisions (
        id            INTEGER PRIMARY KEY,
        draft_id      TEXT NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
        title         TEXT NOT NULL,
        content       TEXT NOT NULL,
        categories    TEXT NOT NULL,
        started_at    TEXT NOT NULL,
        saved_at      TEXT NOT NULL,
        restored_from INTEGER
      );
      CREATE INDEX draft_revisions_by_draft ON draft_revisions (draft_id, id);

      -- What the servers last said, for showing at once and offline. Each entry is replaced whole.
      CREATE TABLE caches (
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        key        TEXT NOT NULL, -- '' for what an account has one of; else the weblog's PostURI or the feed's URI
        value      TEXT NOT NULL, -- JSON
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (account_id, kind, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'outbox',
    sql: `
      -- Every change waiting to reach a server, written in the same transaction as the change it carries (a draft
      -- marked queued), so nothing queued is lost to a crash. Within a queue, operations go out in id order.
      CREATE TABLE outbox (
        id              INTEGER PRIMARY KEY,
        account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        queue_key       TEXT NOT NULL, -- the collection it goes to: a weblog's, album's or list's PostURI
        kind            TEXT NOT NULL CHECK (kind IN ('post.create', 'post.update', 'post.delete', 'upload', 'photo',
                          'list-item')),
        draft_id        TEXT REFERENCES drafts (id), -- a draft with changes on their way cannot be deleted
        payload         TEXT NOT NULL,        -- JSON: what to send, as it was when queued
        idempotency_key TEXT NOT NULL UNIQUE, -- the Idempotency-Key of every attempt, across restarts
        state           TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'needs-attention', 'conflict')),
        uncertain       INTEGER NOT NULL DEFAULT 0, -- 1 when an earlier attempt may have reached the server
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL DEFAULT 0, -- milliseconds since the epoch
        last_error      TEXT,
        result          TEXT,                 -- JSON: what the server answered, once done
        enqueued_at     TEXT NOT NULL,
        updated_at      TEXT NOT NULL
      );
      CREATE INDEX outbox_open ON outbox (queue_key, id) WHERE state != 'done';
      CREATE INDEX outbox_by_draft ON outbox (draft_id, id) WHERE draft_id IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'social cache',
    sql: `
      -- An account's optional side on the JSON interface: where it is, the API key (the OAuth consumer key, not a
      -- secret) and whom the access token acts for. The consumer secret, access token and its secret are in the vault.
      ALTER TABLE accounts ADD COLUMN json_base TEXT;
      ALTER TABLE accounts ADD COLUMN api_key TEXT;
      ALTER TABLE accounts ADD COLUMN json_user_url_id TEXT;
      ALTER TABLE accounts ADD COLUMN json_username TEXT;

      -- People whose activity an account follows, and where reading their stream stands.
      CREATE TABLE friends (
        id               TEXT PRIMARY KEY,
        account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        url_id           TEXT NOT NULL,
        profile          TEXT NOT NULL,              -- JSON: the User as last read (name, avatar, profile page)
        interval_seconds INTEGER,                    -- how often to look for news; NULL for the app's default
        new_count        INTEGER NOT NULL DEFAULT 0, -- events arrived since the reader last looked
        total_results    INTEGER,                    -- the stream's length as the server last gave it
        older_token      TEXT,                       -- moreResultsToken continuing below the oldest cached event
        reached_end      INTEGER NOT NULL DEFAULT 0, -- 1 when the cache reaches down to the stream's first event
        last_polled_at   INTEGER,                    -- milliseconds since the epoch, of the last attempt
        last_success_at  INTEGER,
        problem          TEXT,                       -- why the last attempt failed, in words; NULL after a success
        offline          INTEGER NOT NULL DEFAULT 0, -- 1 when the last attempt could not reach the service
        added_at         TEXT NOT NULL,
        UNIQUE (account_id, url_id)
      );

      -- A friend's events for reading offline, in the stream's order: new arrivals go above, older pages below.
      CREATE TABLE friend_events (
        friend_id  TEXT NOT NULL REFERENCES friends (id) ON DELETE CASCADE,
        url_id     TEXT NOT NULL,
        position   REAL NOT NULL, -- ascending is newest first
        event      TEXT NOT NULL, -- JSON: the event as the JSON client read it
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (friend_id, url_id)
      ) WITHOUT ROWID;
      CREATE INDEX friend_events_in_order ON friend_events (friend_id, position);
    `,
  },
  {
    version: 5,
    name: 'media copies and uploads',
    sql: `
      -- Files copied into <data dir>/media/<hash>.<extension>, so a queued photo survives its original moving.
      CREATE TABLE media_copies (
        hash      TEXT PRIMARY KEY, -- SHA-256 of the bytes, hex
        type      TEXT NOT NULL,    -- media type sniffed from the bytes
        extension TEXT NOT NULL,
        size      INTEGER NOT NULL,
        added_at  TEXT NOT NULL
      ) WITHOUT ROWID;

      -- Where a weblog's UploadURI put each file, so the same bytes in two posts go up once.
      CREATE TABLE uploaded_media (
        weblog_post_uri TEXT NOT NULL,
        hash            TEXT NOT NULL,
        url             TEXT NOT NULL,
        uploaded_at     TEXT NOT NULL,
        PRIMARY KEY (weblog_post_uri, hash)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    name: 'drafts trash',
    sql: `
      -- A deleted draft that was never published waits here, with its revisions, until restored or purged.
      ALTER TABLE drafts ADD COLUMN trashed_at TEXT;
      CREATE INDEX drafts_in_trash ON drafts (account_id, weblog_post_uri, trashed_at) WHERE trashed_at IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'friends remote images',
    sql: `
      -- Images in a friend's events from other servers can track the reader: loaded only with consent, as a mail
      -- client does. Friends followed before this question was asked keep loading them, so nothing changes silently.
      ALTER TABLE friends ADD COLUMN load_remote_images INTEGER NOT NULL DEFAULT 0;
      UPDATE friends SET load_remote_images = 1;
    `,
  },
  {
    version: 8,
    name: 'weblog image settings',
    sql: `
      -- What the person chose for one weblog on this computer: the widest an image of a post is sent at.
      CREATE TABLE weblog_settings (
        account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        weblog_post_uri TEXT NOT NULL,
        max_image_width INTEGER NOT NULL,
        PRIMARY KEY (account_id, weblog_post_uri)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    name: 'post properties and edits of published posts',
    sql: `
      -- The excerpt (Atom summary) and the publish date (issued; NULL: when it is published) the person chose, and
      -- the categories the server did not keep the last time it answered.
      ALTER TABLE drafts ADD COLUMN summary TEXT NOT NULL DEFAULT '';
      ALTER TABLE drafts ADD COLUMN issued TEXT;
      ALTER TABLE drafts ADD COLUMN dropped_categories TEXT NOT NULL DEFAULT '[]';
      -- A published post's copy holds changes not yet queued. Drafts of published posts move from the Drafts list to
      -- Posts; so that none hides there unnoticed, any whose text was saved after it last settled counts as changed.
      ALTER TABLE drafts ADD COLUMN unpublished_changes INTEGER NOT NULL DEFAULT 0;
      UPDATE drafts SET unpublished_changes = 1
      WHERE remote_edit_uri IS NOT NULL AND state NOT IN ('deleting', 'deleted') AND (
        state != 'published' OR
        (SELECT max(saved_at) FROM draft_revisions WHERE draft_id = drafts.id) >= drafts.updated_at
      );
    `,
  },
  {
    version: 10,
    name: 'search and revision reasons',
    sql: `
      -- What search finds: the drafts outside the Trash (their text as plain words) and the posts last read from the
      -- weblogs' feeds, one row each, indexed by FTS5 as an external-content table. Drafts are kept here by the
      -- triggers below; posts by Caches.replaceFeedPage. plain_text() is registered by LocalStore.open.
      -- Indexing a long post costs a few hundred ms, too much for every autosave: a save only marks the draft in
      -- search_stale, and Search indexes those again before it answers.
      CREATE TABLE search_documents (
        id              INTEGER PRIMARY KEY,
        account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        kind            TEXT NOT NULL CHECK (kind IN ('draft', 'post')),
        weblog_post_uri TEXT NOT NULL,
        draft_id        TEXT UNIQUE,    -- a draft's id; NULL for a post
        edit_uri        TEXT,           -- a post's EditURI, or the one of the post a draft edits
        page_uri        TEXT,           -- the feed page a post was read on
        title           TEXT NOT NULL,
        body            TEXT NOT NULL,  -- plain text
        at              TEXT            -- a draft's last change, a post's issued date
      );
      CREATE INDEX search_documents_posts ON search_documents (account_id, edit_uri) WHERE kind = 'post';
      CREATE INDEX search_documents_pages ON search_documents (account_id, page_uri) WHERE kind = 'post';
      -- A post with a local draft is found as that draft: the dedupe looks drafts up by the post they edit.
      CREATE INDEX drafts_by_edit_uri ON drafts (account_id, remote_edit_uri) WHERE remote_edit_uri IS NOT NULL;

      CREATE VIRTUAL TABLE search_index USING fts5(
        title, body, content = 'search_documents', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TABLE search_stale (draft_id TEXT PRIMARY KEY REFERENCES drafts (id) ON DELETE CASCADE) WITHOUT ROWID;
      CREATE TRIGGER search_documents_added AFTER INSERT ON search_documents BEGIN
        INSERT INTO search_index (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
      END;
      CREATE TRIGGER search_documents_removed AFTER DELETE ON search_documents BEGIN
        INSERT INTO search_index (search_index, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
      END;
      CREATE TRIGGER search_documents_changed AFTER UPDATE ON search_documents BEGIN
        INSERT INTO search_index (search_index, rowid, title, body) VALUES ('delete', OLD.id, OLD.title, OLD.body);
        INSERT INTO search_index (rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
      END;

      -- A draft is searchable while it is outside the Trash and stands for something that is not being deleted.
      CREATE TRIGGER drafts_searchable_added AFTER INSERT ON drafts
      WHEN NEW.trashed_at IS NULL AND NEW.state NOT IN ('deleting', 'deleted') BEGIN
        INSERT INTO search_documents (account_id, kind, weblog_post_uri, draft_id, edit_uri, title, body, at)
        VALUES (NEW.account_id, 'draft', NEW.weblog_post_uri, NEW.id, NEW.remote_edit_uri, NEW.title,
                plain_text(NEW.content), NEW.updated_at);
      END;
      CREATE TRIGGER drafts_text_changed AFTER UPDATE OF title, content ON drafts BEGIN
        INSERT OR IGNORE INTO search_stale (draft_id) VALUES (NEW.id);
      END;
      CREATE TRIGGER drafts_searchable_changed AFTER UPDATE OF state, trashed_at, remote_edit_uri ON drafts
      WHEN (OLD.trashed_at IS NULL AND OLD.state NOT IN ('deleting', 'deleted'))
             != (NEW.trashed_at IS NULL AND NEW.state NOT IN ('deleting', 'deleted'))
        OR OLD.remote_edit_uri IS NOT NEW.remote_edit_uri BEGIN
        DELETE FROM search_stale WHERE draft_id = OLD.id;
        DELETE FROM search_documents WHERE draft_id = OLD.id;
        INSERT INTO search_documents (account_id, kind, weblog_post_uri, draft_id, edit_uri, title, body, at)
        SELECT NEW.account_id, 'draft', NEW.weblog_post_uri, NEW.id, NEW.remote_edit_uri, NEW.title,
               plain_text(NEW.content), NEW.updated_at
        WHERE NEW.trashed_at IS NULL AND NEW.state NOT IN ('deleting', 'deleted');
      END;
      CREATE TRIGGER drafts_searchable_removed AFTER DELETE ON drafts BEGIN
        DELETE FROM search_documents WHERE draft_id = OLD.id;
      END;

      INSERT INTO search_documents (account_id, kind, weblog_post_uri, draft_id, edit_uri, title, body, at)
      SELECT account_id, 'draft', weblog_post_uri, id, remote_edit_uri, title, plain_text(content), updated_at
      FROM drafts WHERE trashed_at IS NULL AND state NOT IN ('deleting', 'deleted');
      -- Posts cached before this version are found once their weblog's posts are read again: a cached page does not
      -- say which weblog it is of.

      -- Why each revision was made, for the History: typing, typing while the weblog's server could not be reached,
      -- publishing, restoring an earlier version, or opening a published post from the weblog.
      ALTER TABLE draft_revisions ADD COLUMN reason TEXT NOT NULL DEFAULT 'edited'
        CHECK (reason IN ('edited', 'offline', 'published', 'restored', 'from-weblog'));
      UPDATE draft_revisions SET reason = 'restored' WHERE restored_from IS NOT NULL;
    `,
  },
]
