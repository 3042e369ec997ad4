// Where the OAuth provider lives: the URL fields of an Application (spec §2.2), each one served by routes/oauth.ts.
// The three that TypePad made per application (session sync, sign-out, user flyouts) carry the application's id.

export const OAUTH_PATHS = {
  requestToken: '/oauth/request_token',
  authorize: '/oauth/authorize',
  accessToken: '/oauth/access_token',
  identify: '/oauth/identify',
  sessionSyncScript: '/oauth/applications/:applicationId/session-sync.js',
  signOut: '/oauth/applications/:applicationId/sign-out',
  userFlyoutsScript: '/oauth/applications/:applicationId/user-flyouts.js',
} as const

export interface ApplicationUrls {
  oauthRequestTokenUrl: string
  oauthAuthorizationUrl: string
  oauthAccessTokenUrl: string
  oauthIdentificationUrl: string
  sessionSyncScriptUrl: string
  signoutUrl: string
  userFlyoutsScriptUrl: string
}

/** The URL fields of the Application whose id (its urlId) is `applicationId`, on a service reachable at `origin`. */
export function applicationUrls(origin: string, applicationId: string): ApplicationUrls {
  const at = (path: string) => `${origin}${path.replace(':applicationId', encodeURIComponent(applicationId))}`
  return {
    oauthRequestTokenUrl: at(OAUTH_PATHS.requestToken),
    oauthAuthorizationUrl: at(OAUTH_PATHS.authorize),
    oauthAccessTokenUrl: at(OAUTH_PATHS.accessToken),
    oauthIdentificationUrl: at(OAUTH_PATHS.identify),
    sessionSyncScriptUrl: at(OAUTH_PATHS.sessionSyncScript),
    signoutUrl: at(OAUTH_PATHS.signOut),
    userFlyoutsScriptUrl: at(OAUTH_PATHS.userFlyoutsScript),
  }
}
