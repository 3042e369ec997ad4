export * from './shapes'
export * from './errors'
export { ContractViolation, type Check } from './checks'
export {
  channels,
  events,
  requestChecks,
  type Channel,
  type Channels,
  type Event,
  type Events,
  type RequestOf,
  type ResultOf,
} from './channels'
export {
  buildBlogApi,
  createDispatcher,
  type BlogApi,
  type Dispatcher,
  type DispatcherOptions,
  type Handlers,
  type Transport,
} from './bridge'
