// What this computer keeps for one weblog (the server knows nothing of it): the widest its posts' images are sent at.
import type { WeblogImageSettings } from '../../../../src-shared/contract'
import { api } from '../../lib/api'

export const readWeblogSettings = (accountId: string, weblogPostUri: string): Promise<WeblogImageSettings> =>
  api.weblogs.settings({ accountId, weblogPostUri })

export const saveWeblogSettings = (accountId: string, weblogPostUri: string, settings: WeblogImageSettings): Promise<WeblogImageSettings> =>
  api.weblogs.saveSettings({ accountId, weblogPostUri, ...settings })
