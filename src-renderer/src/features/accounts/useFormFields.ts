// The text fields of a form that is checked when it is sent: their values, what is wrong with each (cleared as the
// person edits it), and the props a TextField takes, so that each form says only its fields and its checks.
import { useState, type ChangeEvent } from 'react'

export type FieldErrors<Fields> = Partial<Record<keyof Fields, string>>

export function useFormFields<Fields extends Record<keyof Fields, string>>(initial: Fields, check: (values: Fields) => FieldErrors<Fields>) {
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<FieldErrors<Fields>>({})
  return {
    values,
    /** The TextField props of the field `name`, read-only while the form is busy. */
    field: (name: keyof Fields & string, busy: boolean) => ({
      name,
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const { value } = event.target
        setValues((current) => ({ ...current, [name]: value }))
        setErrors((current) => ({ ...current, [name]: undefined }))
      },
      readOnly: busy,
      error: errors[name],
    }),
    /** Checks every field and shows what needs attention, giving the first such field of `form` the focus; answers
     * whether all are fine. */
    allFine(form: HTMLFormElement | null): boolean {
      const found = check(values)
      setErrors(found)
      const first = [...(form?.elements ?? [])].find((element) => element instanceof HTMLInputElement && found[element.name as keyof Fields])
      if (first instanceof HTMLInputElement) first.focus()
      return !Object.values(found).some(Boolean)
    },
  }
}
