export { Accounts } from './accounts'
export { SIGN_IN_TIMEOUT_MS, type JsonConsumer, type JsonCredentials, type JsonSide } from './json-side'
export { CALLBACK_PATH as OAUTH_CALLBACK_PATH } from './loopback-callback'
export { FileVault, RememberingVault, type SecretCipher, type Vault } from './vault'
