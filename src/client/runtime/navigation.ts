/**
 * Navigation through browser history without full page loads: a click on a link to one of our
 * pages fetches it and swaps it in (swap.ts); Back and Forward do the same and restore the
 * position the visitor left. Whatever goes wrong ends on a whole page: the fetched page, an error
 * state, the current page with a notice (offline), or a normal page load.
 */
import { notFoundPageFor } from '../../shared/urls.ts'
import { readData } from './data.ts'
import { clearCurrentLinks, showError, showFallback } from './error-page.ts'
import type { LoadingBar } from './loading-bar.ts'
import { linkToOpen, pageKey } from './links.ts'
import { cancelSave, restoreScroll, savedPosition, savePosition, type Position } from './scroll.ts'
import { canSwap, parseHtml, swapDocument } from './swap.ts'

export interface NavigationHooks {
  bar: LoadingBar
  /** The fetch failed while the browser is offline. */
  offline(): void
  /** Replaces what is on screen: tears the page's enhancements down, runs `change`, starts them again. */
  replaceContent(change: () => void): void
  /** A page or error state is on screen, focused and scrolled: announce it, count it. */
  shown(): void
}

/** push: a link; replace: a link to the page on screen; pop: Back or Forward (the URL has changed already). */
type Mode = 'push' | 'replace' | 'pop'

export function startNavigation(hooks: NavigationHooks): void {
  let inFlight: AbortController | undefined
  /** Path and query of the content on screen; the address bar runs ahead of it during a pop. */
  let onScreen = pageKey(location)

  const isHtml = (response: Response) => /^(text\/html|application\/xhtml\+xml)/.test(response.headers.get('content-type') ?? '')

  function loadInFull(url: URL, mode: Mode): void {
    if (mode === 'pop') location.reload()
    else if (mode === 'replace') location.replace(url.href)
    else location.assign(url.href)
  }

  /** Moves history to `url`, puts the new content in place, scrolls, focuses and reports it. */
  function commit(url: URL, mode: Mode, change: () => void, saved?: Position): void {
    hooks.bar.finish()
    if (mode !== 'pop') {
      savePosition()
      history[mode === 'push' ? 'pushState' : 'replaceState']({}, '', url.href)
    }
    onScreen = pageKey(url)
    hooks.replaceContent(change)
    document.querySelector('main')?.focus({ preventScroll: true })
    restoreScroll(saved, url.hash)
    hooks.shown()
  }

  function showPage(url: URL, mode: Mode, doc: Document, saved?: Position): void {
    commit(url, mode, () => {
      try {
        swapDocument(doc)
      } catch {
        location.reload() // never leave a half-swapped page: load the address in full
      }
    }, saved)
  }

  function showErrorState(url: URL, mode: Mode, render: () => void): void {
    hooks.bar.fail()
    commit(url, mode, () => {
      try {
        render()
      } catch (error) {
        showFallback(error)
      }
      clearCurrentLinks()
    })
  }

  /** The 404 page of the requested URL's language, under the requested URL. */
  async function notFoundPage(url: URL, response: Response, html: string, signal: AbortSignal): Promise<Document> {
    const answered = isHtml(response) ? parseHtml(html) : undefined
    if (answered && canSwap(answered)) return answered
    const data = readData()
    const page = data ? notFoundPageFor(url.pathname, data.locales, data.defaultLocale) : '/404.html'
    const fetched = await fetch(page, { signal })
    if (!fetched.ok || !isHtml(fetched)) throw new Error(`${page} answered ${fetched.status}`)
    const doc = parseHtml(await fetched.text())
    if (!canSwap(doc)) throw new Error(`${page} is not a page of this site`)
    return doc
  }

  async function navigate(url: URL, mode: Mode, saved?: Position): Promise<void> {
    inFlight?.abort()
    const controller = (inFlight = new AbortController())
    const { signal } = controller
    hooks.bar.start()
    let response: Response
    let html: string
    try {
      response = await fetch(url.href, { signal, headers: { accept: 'text/html' } })
      html = await response.text()
    } catch {
      if (signal.aborted) return
      hooks.bar.fail()
      hooks.bar.finish()
      if (navigator.onLine) loadInFull(url, mode)
      else hooks.offline()
      return
    }
    if (signal.aborted) return
    // A redirect the server answered with: show its target, keeping the link's anchor.
    const shownUrl = response.redirected ? new URL(url.hash, response.url) : url
    if (response.status === 404) {
      hooks.bar.fail()
      try {
        const doc = await notFoundPage(url, response, html, signal)
        if (!signal.aborted) showPage(url, mode, doc)
      } catch (error) {
        if (!signal.aborted) showErrorState(url, mode, () => showFallback(error))
      }
    } else if (!response.ok) {
      showErrorState(url, mode, () => showError(response.status))
    } else {
      const doc = isHtml(response) ? parseHtml(html) : undefined
      if (doc && canSwap(doc)) showPage(shownUrl, mode, doc, saved)
      else loadInFull(url, mode)
    }
    if (inFlight === controller) inFlight = undefined
  }

  document.addEventListener('click', (event) => {
    const url = linkToOpen(event)
    if (!url) return
    event.preventDefault()
    void navigate(url, pageKey(url) === pageKey(location) ? 'replace' : 'push')
  })

  addEventListener('popstate', (event) => {
    cancelSave()
    const saved = savedPosition(event.state)
    const url = new URL(location.href)
    if (pageKey(url) !== onScreen) return void navigate(url, 'pop', saved)
    // An entry of the page on screen (an anchor the browser followed): only scroll.
    inFlight?.abort()
    hooks.bar.finish()
    restoreScroll(saved, url.hash)
  })
}
