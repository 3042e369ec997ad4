export { DEFAULT_STREAM_IDLE_MS, JsonClient, MAX_PAGE_SIZE, type EventsHead, type JsonClientOptions } from './client'
export { exchangeForAccessToken, fetchRequestToken, type TokenAndSecret, type TokenStepOptions } from './oauth'
export type {
  ImageLink,
  JsonApiKey,
  JsonApplication,
  JsonAssetRef,
  JsonAuthToken,
  JsonComment,
  JsonContainer,
  JsonEvent,
  JsonEventObject,
  JsonGroup,
  JsonListItem,
  JsonPhoto,
  JsonPost,
  JsonUser,
  List,
  Stream,
  TextFormat,
} from './shapes'
