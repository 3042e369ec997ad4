export { AppWindows, canvasColors } from './app-windows'
export { appPage, type AppPage, type AppPageOptions } from './page'
export { CONTENT_SECURITY_POLICY, isWebLink } from './security'
