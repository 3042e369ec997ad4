/** The document cannot be read as XML: malformed, declares a DOCTYPE or entities, too big or nested too deeply. */
export class XmlError extends Error {
  override name = 'XmlError'
}
