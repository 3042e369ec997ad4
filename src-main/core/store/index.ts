export { LocalStore, type Params, type Row } from './database'
export { migrations, type Migration } from './migrations'
