import { lazy, type FunctionComponent, type LazyExoticComponent } from 'react'

/**
 * One component of a module that is loaded when the component is first drawn (inside a Suspense): a feature's door
 * hands out its heavier panes this way, so their code is not part of the window's first load.
 */
export function lazyNamed<Name extends string, Props extends object>(
  load: () => Promise<{ [K in Name]: FunctionComponent<Props> }>,
  name: Name,
): LazyExoticComponent<FunctionComponent<Props>> {
  return lazy(() => load().then((module) => ({ default: module[name] })))
}
