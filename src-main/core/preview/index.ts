export { readWeblogLook, type LookRequest, type PostOnTheWeblog, type ReadLook } from './look'
export { LookFailure } from './page-fetch'
