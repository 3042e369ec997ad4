// Who Blogdesk is to the operating system. electron-builder.yml says the same (packaging.test.ts checks): Windows ties
// notifications and the taskbar to the installer's AppUserModelID, and the data folder is named after the product.

export const APP_ID = 'org.blogdesk.app'
export const PRODUCT_NAME = 'Blogdesk'
