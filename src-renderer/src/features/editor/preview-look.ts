// The weblog's look for the preview, asked of the main process (which reads the weblog's page and caches it).
import type { WeblogAddress, WeblogLook } from '../../../../src-shared/contract'
import { api } from '../../lib/api'

export const readWeblogLook = (weblog: WeblogAddress, refresh: boolean): Promise<WeblogLook> => api.preview.look({ ...weblog, refresh })
