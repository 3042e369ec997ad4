import { lazyNamed } from '../../lib/lazyNamed'

export { PausedBanner } from './PausedBanner'
export { followAccounts, useAccountsStore, type AccountsState, type Loadable } from './store'
export { Welcome } from './Welcome'
export { WeblogDetails } from './WeblogDetails'
export const AccountPanel = lazyNamed(() => import('./AccountPanel'), 'AccountPanel')
export const AddAccountPanel = lazyNamed(() => import('./AddAccountPanel'), 'AddAccountPanel')
