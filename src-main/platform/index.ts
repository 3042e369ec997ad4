export { safeStorageCipher, type SafeStorageCipher } from './cipher'
export { netFetch } from './net'
export { appPaths, type AppPaths } from './paths'
