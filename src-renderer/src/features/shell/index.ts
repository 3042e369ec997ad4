import { lazyNamed } from '../../lib/lazyNamed'

export { Sidebar } from './Sidebar'
export { StatusBar } from './StatusBar'
export { useStatusStore } from './statusStore'
export { useShellSync } from './useShellSync'
export { PaneBoundary } from './PaneBoundary'
export const OutboxPanel = lazyNamed(() => import('./OutboxPanel'), 'OutboxPanel')
