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
  type ShellChannel,
} from './channels'
export {
  buildBlogApi,
  createDispatcher,
  type BlogApi,
  type CoreHandlers,
  type Dispatcher,
  type DispatcherOptions,
  type Handlers,
  type ShellHandlers,
  type Transport,
} from './bridge'
export { acceleratorOf, shortcuts, type Shortcut, type ShortcutGroup, type ShortcutName } from './shortcuts'
