// The refusal of a database written by a newer service, in the same words on both engines.
import { SetupError } from '../setup-error'

export function newerSchemaError(found: number, known: number): SetupError {
  return new SetupError(
    `This data was written by a newer Blogdesk service (schema ${found}; this one knows up to ${known}). ` +
      'Update Blogdesk to use it.',
  )
}
