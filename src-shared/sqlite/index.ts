export { SqliteDatabase, type Bindings, type OpenOptions, type Row, type SqlValue, type TransactionControl } from './database'
export { checkMigrations, type Migration } from './migrations'
export { claimDataFolder, type DataFolderClaim, type Ownership } from './ownership'
