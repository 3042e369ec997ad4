/**
 * A problem with how the service was started that the person starting it can fix (a data dir that is a file or
 * is in use, a port that is taken). The message says what happened and what to do, in one line.
 */
export class SetupError extends Error {
  override name = 'SetupError'
}
