/** Joins the class names that are set, so components can add modifiers and accept a caller's className. */
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}
