/**
 * Loaded only on pages served by `clinic-build dev`: reloads the tab after a rebuild, swaps the
 * stylesheet after a style-only change, and shows the errors over the page while the last good
 * build stays on screen: the whole site's, or those of this page's own file when it is held back.
 */
interface Problem { code: string; severity: string; message: string; hint?: string; file?: string; line?: number; column?: number }

const events = new EventSource('/__clinic/events')
events.addEventListener('reload', () => location.reload())
events.addEventListener('style', (e) => { hideOverlay(); swapStylesheets((JSON.parse((e as MessageEvent).data) as { stylesheets: string[] }).stylesheets) })
events.addEventListener('problems', (e) => showStanding(JSON.parse((e as MessageEvent).data) as Standing))

/** Errors of the whole site, or (with `pages`) those that hold each page named there, shown on that page alone. */
interface Standing { problems: Problem[]; pages?: Record<string, Problem[]> }

function showStanding({ problems, pages }: Standing): void {
  if (!pages) return showOverlay(problems, 'site')
  const own = pages[location.pathname] ?? []
  if (own.length > 0) showOverlay(own, 'page')
  else hideOverlay()
}

/** Replaces each stylesheet by its rebuilt version (same name, new hash), removing the old one once the new one has loaded. */
function swapStylesheets(urls: string[]): void {
  const stem = (href: string) => new URL(href, location.href).pathname.replace(/\.[A-Za-z0-9_-]+\.css$/, '')
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
    const next = urls.find((u) => stem(u) === stem(link.href))
    if (!next || new URL(next, location.href).href === link.href) continue
    const fresh = link.cloneNode() as HTMLLinkElement
    fresh.href = next
    fresh.addEventListener('load', () => link.remove(), { once: true })
    link.after(fresh)
  }
}

const OVERLAY_ID = 'clinic-dev-overlay'

function hideOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove()
}

function showOverlay(problems: Problem[], whose: 'site' | 'page'): void {
  hideOverlay()
  const host = document.createElement('div')
  host.id = OVERLAY_ID
  const root = host.attachShadow({ mode: 'open' })
  // A constructed stylesheet: the site's policy refuses inline <style>, in a shadow root too.
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(`
    section { position: fixed; inset: 0; z-index: 2147483647; overflow: auto; background: rgb(20 20 20 / .92); color: #f5f5f5; font: 1rem/1.5 system-ui, sans-serif; padding: 2rem }
    h2 { margin: 0 0 .5rem; font-size: 1.4rem; color: #ffb4a8 }
    li { margin: 0 0 1rem } code { font: .95rem ui-monospace, monospace; color: #ffd479 } .hint { color: #cfcfcf }
    button { font: inherit; padding: .4rem 1rem; background: #f5f5f5; color: #141414; border: 0; border-radius: 4px; cursor: pointer }
    button:focus-visible { outline: 3px solid #ffd479; outline-offset: 2px }`)
  root.adoptedStyleSheets = [sheet]
  root.innerHTML = `<section role="alertdialog" aria-labelledby="title" aria-describedby="about">
    <h2 id="title"></h2>
    <p id="about"></p>
    <ul></ul>
    <button type="button">Hide</button>
  </section>`
  const errors = problems.filter((p) => p.severity === 'error')
  const count = `${errors.length} error${errors.length === 1 ? '' : 's'}`
  root.getElementById('title')!.textContent = whose === 'site' ? `${count} in the site's files` : `${count} ${errors.length === 1 ? 'holds' : 'hold'} this page back`
  root.getElementById('about')!.textContent = whose === 'site'
    ? 'The page below is the last good build. Save a fix and this tab updates by itself.'
    : 'The page below is its last good build; every other page is rebuilt as usual. Save a fix and this tab updates by itself.'
  const list = root.querySelector('ul')!
  for (const p of errors) {
    const item = document.createElement('li')
    const where = document.createElement('code')
    where.textContent = [p.file, p.line, p.line && p.column].filter(Boolean).join(':')
    item.append(where, ` ${p.code}: ${p.message}`)
    if (p.hint) {
      const hint = document.createElement('div')
      hint.className = 'hint'
      hint.textContent = p.hint
      item.append(hint)
    }
    list.append(item)
  }
  const button = root.querySelector('button')!
  button.addEventListener('click', hideOverlay)
  document.body.append(host)
  button.focus()
}
