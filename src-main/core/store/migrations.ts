// Numbered migrations, applied in order, each in its own transaction. Never edit one that has shipped: add the next.
export interface Migration {
  version: number
  name: string
  sql: string
}

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
]
