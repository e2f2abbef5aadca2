/**
 * What every island module default-exports: it enhances its element and returns the teardown a
 * page swap calls. Apart from the registry (../islands.ts), so an island can name it without
 * importing the registry that imports it.
 */
export type Island = (element: HTMLElement) => (() => void) | void
