export { SqliteDatabase, type Bindings, type OpenOptions, type Row, type SqlValue } from './database'
export { checkMigrations, type Migration } from './migrations'
export { claimDataFolder, type DataFolderClaim, type Ownership } from './ownership'
