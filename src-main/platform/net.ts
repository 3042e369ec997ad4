// HTTP for core through Chromium's network stack, so requests honour the system's proxy settings and certificates.
import { net } from 'electron'

export const netFetch: typeof fetch = (input, init) => net.fetch(input instanceof URL ? input.href : input, init)
