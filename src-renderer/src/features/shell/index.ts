import { lazyNamed } from '../../lib/lazyNamed'

export { Sidebar } from './Sidebar'
export { StatusBar } from './StatusBar'
export { useStatusStore } from './statusStore'
export { describeConnection, describeWaiting, useConnection, useSecondsUntil } from './connection'
export { followShell, type QuittingDetail } from './follow'
export { PaneBoundary } from './PaneBoundary'
export const OutboxPanel = lazyNamed(() => import('./OutboxPanel'), 'OutboxPanel')
