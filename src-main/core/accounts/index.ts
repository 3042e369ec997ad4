export { Accounts } from './accounts'
export { FileVault, type SecretCipher, type Vault } from './vault'
