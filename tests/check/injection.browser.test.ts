/**
 * Untrusted input: script-injection payloads written into a Markdown body, front matter and a
 * locale string are built into a copy of the site; none may run or reach a page as live markup,
 * and the editor is warned about each thing the sanitiser removed from the body, with its line.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { build, type BuildResult } from '../../src/index.ts'
import { formatDiagnostic } from '../../src/errors.ts'
import { inlineScriptSources } from '../../src/assets/inline-scripts.ts'
import { buildSite, launchBrowser, serveFolder, type RunningServer } from '../support/browser.ts'
import { copySite, edit } from '../support/helpers.ts'

/** Each payload calls hit(name) or alert() if it ever runs. */
const BODY_PAYLOADS = [
  '<script>hit("script")</script>',
  '<img src="/favicon.svg" onerror="hit(\'img-onerror\')" onload="hit(\'img-onload\')">',
  '<svg onload="hit(\'svg\')"><circle r="5"/></svg>',
  '<iframe src="javascript:hit(\'iframe\')"></iframe>',
  '<iframe srcdoc="<script>parent.hit(\'srcdoc\')</script>"></iframe>',
  '<a href="javascript:hit(\'a-href\')">a link</a>',
  '<a href="jav&#x09;ascript:hit(\'a-tab\')">a tabbed link</a>',
  '<a href=" JaVaScRiPt:hit(\'a-case\')">a mixed-case link</a>',
  '[a Markdown link](javascript:hit("md-link"))',
  '<javascript:hit("autolink")>',
  '![an image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImhpdCgnZGF0YScpIi8+)',
  '<a href="data:text/html,<script>hit(\'data-link\')</script>">a data link</a>',
  '<details open ontoggle="hit(\'details\')"><summary>more</summary>text</details>',
  '<input autofocus onfocus="hit(\'input\')">',
  '<form action="javascript:hit(\'form\')"><button>send</button></form>',
  '<object data="javascript:hit(\'object\')"></object>',
  '<embed src="javascript:hit(\'embed\')">',
  '<meta http-equiv="refresh" content="0;url=javascript:hit(\'meta\')">',
  '<base href="javascript:hit(\'base\')//">',
  '<div style="background:url(javascript:hit(\'style-attr\'))">styled</div>',
  '<style>@import "javascript:hit(\'style\')";</style>',
  '<math><mtext></form><form><mglyph><style></math><img src onerror="hit(\'mxss\')">',
  '<noscript><p title="</noscript><img src=x onerror=hit(\'noscript\')>"></noscript>',
  '<template><script>hit("template")</script></template>',
  '<!--><script>hit("comment")</script>-->',
  '<x-custom onclick="hit(\'custom\')">custom</x-custom>',
  '<span id="site-nav" name="main">clobbering ids</span>',
]

/** Text values: they must show as text, never as markup. */
const TEXT_PAYLOAD = '</script><script>hit("text")</script><img src=x onerror=hit("text-img")>'

let browser: Browser
let server: RunningServer
let result: BuildResult
let root: string

beforeAll(async () => {
  root = copySite()
  edit(root, 'content/en/privacy.md', (text) => text
    .replace(/^title: .*$/m, `title: '${TEXT_PAYLOAD}'`)
    .replace(/^description: .*$/m, `description: '"><script>hit("description")</script>'`)
    .replace(/\n## Who collects your data/, `\n${BODY_PAYLOADS.join('\n\n')}\n\n## Who collects your data`))
  edit(root, 'locales/en-SG.yaml', (text) => text.replace(/^( {2}text: ).*$/m, `$1'${TEXT_PAYLOAD}'`))
  result = await build({ root, write: false })
  server = await serveFolder(await buildSite(root))
  browser = await launchBrowser()
})
afterAll(async () => { await browser?.close(); await server?.close() })

test('the build succeeds and warns once for each removed thing, naming the file and line', () => {
  expect(result.ok).toBe(true)
  const warnings = result.diagnostics.filter((d) => d.code === 'UnsafeMarkup')
  expect(warnings.every((d) => d.severity === 'warning' && d.file === 'content/en/privacy.md' && d.line! > 5)).toBe(true)
  const lines = new Set(warnings.map((d) => d.line))
  // Every payload line but the comment (never shown) and the clobbered ids (kept, prefixed) is reported.
  expect(lines.size).toBe(BODY_PAYLOADS.length - 2)
  const printed = warnings.map(formatDiagnostic).join('\n')
  expect(printed).toMatch(/content\/en\/privacy\.md:\d+:1 {2}warning UnsafeMarkup {2}The <script> element was removed with its content\./)
  expect(printed).toContain('The onerror attribute of <img> was removed.')
  expect(printed).toContain('The javascript: URL in the href of <a> was removed: only http, https, mailto and tel links are kept.')
  expect(printed).toContain('The data: URL in the src of <img> was removed: only http and https sources are kept.')
  expect(printed).toContain('The <iframe> element was removed.')
  expect(printed).toContain('hint: Markdown keeps simple HTML only')
})

async function open(path: string): Promise<{ page: Page; hits: string[] }> {
  const page = await browser.newPage()
  const hits: string[] = []
  await page.exposeFunction('hit', (name: string) => { hits.push(name) })
  page.on('dialog', (dialog) => { hits.push(`dialog: ${dialog.message()}`); void dialog.dismiss() })
  await page.goto(server.url + path, { waitUntil: 'load' })
  // Give event handlers that fire on their own (onload, ontoggle, autofocus) their chance.
  await page.locator('details').evaluateAll((all) => all.forEach((d) => (d as HTMLDetailsElement).open = !(d as HTMLDetailsElement).open))
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))))
  return { page, hits }
}

/** Markup that could run code, found in the live document. */
async function liveMarkup(page: Page): Promise<string[]> {
  // The site's own inline scripts (identical on every page) and data blocks are expected.
  return page.evaluate((ownInline) => {
    const found: string[] = []
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) found.push(`${el.tagName} ${attr.name}`)
        if (/^(href|src|action|data|formaction|srcdoc)$/i.test(attr.name) && /^\s*(javascript|data|vbscript):/i.test(attr.value.replace(/[\s\x00-\x1f]/g, ''))) found.push(`${el.tagName} ${attr.name}=${attr.value}`)
        if (attr.name === 'style') found.push(`${el.tagName} style`)
      }
      if (/^(IFRAME|OBJECT|EMBED|BASE|FORM|META)$/.test(el.tagName) && el.closest('main .prose')) found.push(el.tagName)
      if (el.tagName === 'SCRIPT' && !(el as HTMLScriptElement).src && !/^application\/(ld\+)?json$/.test((el as HTMLScriptElement).type) && !ownInline.includes(el.textContent!)) found.push(`inline script: ${el.textContent!.slice(0, 40)}`)
      if (el.tagName === 'SCRIPT' && (el as HTMLScriptElement).src && !new URL((el as HTMLScriptElement).src).pathname.startsWith('/assets/')) found.push(`script ${(el as HTMLScriptElement).src}`)
    }
    return found
  }, inlineScriptSources())
}

test('no payload in the body, the front matter or a locale string runs or stays live', async () => {
  for (const path of ['/privacy/', '/', '/cn/privacy/']) {
    const { page, hits } = await open(path)
    expect(await liveMarkup(page), path).toEqual([])
    expect(hits, path).toEqual([])
    await page.close()
  }
})

test('text values appear as the text the editor wrote', async () => {
  const { page } = await open('/privacy/')
  expect(await page.locator('h1').textContent()).toBe(TEXT_PAYLOAD)
  expect(await page.title()).toContain(TEXT_PAYLOAD)
  // Harmless markup survives, and ids from Markdown cannot take over the page's own.
  expect(await page.locator('main details summary').textContent()).toBe('more')
  expect(await page.locator('#site-nav').evaluate((el) => el.tagName)).toBe('NAV')
  expect(await page.locator('#user-content-site-nav').textContent()).toBe('clobbering ids')
  await page.close()
  const home = await open('/')
  expect(await home.page.locator('.cta p').first().textContent()).toBe(TEXT_PAYLOAD)
  await home.page.close()
})

test('footnotes and in-page links still reach their targets after ids are prefixed', async () => {
  const { renderMarkdown } = await import('../../src/markdown/to-react.ts')
  const { renderToStaticMarkup } = await import('react-dom/server')
  const { unified } = await import('unified')
  const { default: remarkParse } = await import('remark-parse')
  const { default: remarkGfm } = await import('remark-gfm')
  const tree = unified().use(remarkParse).use(remarkGfm).parse('A claim.[^1] See [the note](#note).\n\n<span id="note">Note</span>\n\n[^1]: A source.\n')
  const html = renderToStaticMarkup(renderMarkdown(tree.children) as never)
  const hrefs = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!)
  const ids = new Set([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1]!))
  expect(hrefs.length).toBeGreaterThanOrEqual(3)
  for (const href of hrefs) expect(ids, href).toContain(href)
})
