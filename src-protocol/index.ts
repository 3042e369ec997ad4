export { NS, ATOM_MEDIA_TYPE } from './namespaces'
export { XmlError } from './xml-error'
export { decodeXml, xmlEncodingOf } from './xml-encoding'
export { MAX_XML_BYTES, parseXml, type XmlElement } from './xml-document'
export { type AtomLink } from './links'
export { readLinkFeed, writeLinkFeed, writeErrorDocument } from './atom'
export {
  readEntry,
  writeEntry,
  type AtomContent,
  type AtomEntry,
  type AtomPerson,
  type ContentMode,
  type EntryToWrite,
  type ExtensionElement,
  type ReadOptions,
} from './entry'
export { ATOM_03_VERSION, readFeed, writeFeed, type AtomFeed, type FeedToWrite } from './feed'
export { readCategories, writeCategories } from './categories'
export { isWellFormedMarkup } from './markup'
export { plainTextOf } from './plain-text'
export { formatW3cDate, parseW3cDate } from './dates'
export { emailAddress, webAddress } from './addresses'
export { createWsseHeader, WSSE_CHALLENGE, WsseVerifier, type WsseAccount, type WsseCredentials, type WsseOutcome } from './wsse'
export { UsedNonces, type NonceLedger, type NonceLedgerFactory, type NonceRecording } from './used-nonces'
export {
  baseStringUri,
  createOAuthHeader,
  formatAuthorizationHeader,
  OAUTH_SIGNATURE_METHODS,
  oauthSignature,
  OAuthProblem,
  parseAuthorizationHeader,
  parseFormEncoded,
  percentEncode,
  sameInConstantTime,
  signatureBaseString,
  type OAuthClientCredentials,
  type OAuthParameter,
  type OAuthSignatureMethod,
  type RequestToSign,
  type SigningOptions,
} from './oauth'
export { parseSandboxFile, SANDBOX_FILE, SANDBOX_STOP_MESSAGE, type SandboxFile } from './sandbox'
