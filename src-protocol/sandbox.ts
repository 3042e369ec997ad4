// What the built-in sandbox and the app say to each other: the file the service writes with --demo (read by the app's
// launcher, core's tests and the e2e tests), and the message that asks the service to stop when it runs as the app's
// utility process.

export const SANDBOX_FILE = 'sandbox.json'

/** `<data-dir>/sandbox.json`: where the service listens and the demo account's credentials. */
export interface SandboxFile {
  /** The origin `/t/atom/weblog` hangs off. */
  atomBase: string
  jsonBase: string
  username: string
  /** The WSSE password. */
  apiPassword: string
  apiKey: string
  /** The consumer secret of apiKey, and an access token the demo user already approved. */
  apiSecret: string
  authToken: string
  authTokenSecret: string
  /** For the OAuth sign-in page; the app never needs it, so it stays in the sandbox's folder. */
  loginPassword: string
}

const fields = [
  'atomBase',
  'jsonBase',
  'username',
  'apiPassword',
  'apiKey',
  'apiSecret',
  'authToken',
  'authTokenSecret',
  'loginPassword',
] as const satisfies readonly (keyof SandboxFile)[]

/** The file's content when it has the shape above (web addresses where addresses belong), else null. */
export function parseSandboxFile(value: unknown): SandboxFile | null {
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  if (!fields.every((field) => typeof record[field] === 'string' && record[field] !== '')) return null
  const file = Object.fromEntries(fields.map((field) => [field, record[field]])) as unknown as SandboxFile
  return isHttpOrigin(file.atomBase) && isHttpOrigin(file.jsonBase) ? file : null
}

function isHttpOrigin(address: string): boolean {
  if (!URL.canParse(address)) return false
  const url = new URL(address)
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === address
}

/** Sent over the utility process's message port: the service closes its store and ends its process. */
export const SANDBOX_STOP_MESSAGE = 'blogdesk:stop'
