// What this computer keeps for one weblog: the widest its posts' images are sent at (core/store/weblog-settings.ts).
import type { CoreHandlers } from '../../../src-shared/contract'
import type { Services } from './services'

export type WeblogSettingsChannel = 'weblogs:settings' | 'weblogs:saveSettings'

export function weblogSettingsHandlers({ weblogSettings }: Services): Pick<CoreHandlers, WeblogSettingsChannel> {
  return {
    'weblogs:settings': async ({ accountId, weblogPostUri }) => weblogSettings.get(accountId, weblogPostUri),
    'weblogs:saveSettings': async ({ accountId, weblogPostUri, maxImageWidth }) => weblogSettings.set(accountId, weblogPostUri, { maxImageWidth }),
  }
}
