/** Routes -> HTML documents. Pure: no file system; the write stage persists what this returns. */
import { renderToStaticMarkup } from 'react-dom/server'
import { templates } from '../../templates/index.ts'
import { createPage, type RenderContext } from '../page/index.ts'
import type { OutputFile, Route } from '../types.ts'

export function renderRoute(route: Route, ctx: RenderContext): OutputFile {
  const Template = templates[route.template]
  const html = renderToStaticMarkup(<Template page={createPage(route, ctx)} />)
  return { path: route.output, contents: `<!doctype html>${html}` }
}
