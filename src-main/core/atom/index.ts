export { discoverWeblogRoot, listWeblogs, weblogRootCandidates, weblogsFromLinks } from './discovery'
export type { Fetch } from './http'
