/**
 * Tabs (WAI-ARIA Authoring Practices, automatic activation): the list of links to the sections
 * becomes a tab list and one section shows at a time. Left and Right move between tabs (wrapping),
 * Home and End go to the first and last; Tab moves on into the shown section. A link or address
 * whose #fragment points into a section selects that section's tab; hidden sections are
 * `hidden="until-found"`, so find-in-page still reaches them. Without JavaScript every section
 * is shown after the list of links.
 */
export default function tabs(root: HTMLElement): () => void {
  const index = root.querySelector<HTMLElement>('.tabs__index')
  const links = [...root.querySelectorAll<HTMLAnchorElement>('.tabs__list a[href^="#"]')]
  const pairs = links.flatMap((link) => {
    const panel = document.getElementById(decodeURIComponent(link.hash.slice(1)))
    return panel && root.contains(panel) ? [{ link, panel, tab: document.createElement('button') }] : []
  })
  if (!index || pairs.length === 0) return () => {}

  const list = document.createElement('div')
  list.className = 'tabs__tablist'
  list.setAttribute('role', 'tablist')
  list.setAttribute('aria-label', index.getAttribute('aria-label') ?? '')
  for (const { link, panel, tab } of pairs) {
    tab.type = 'button'
    tab.className = 'tabs__tab'
    tab.id = `${panel.id}-tab`
    tab.textContent = link.textContent
    tab.setAttribute('role', 'tab')
    tab.setAttribute('aria-controls', panel.id)
    panel.setAttribute('role', 'tabpanel')
    panel.setAttribute('tabindex', '0')
    panel.dataset.labelledby = panel.getAttribute('aria-labelledby') ?? ''
    panel.setAttribute('aria-labelledby', tab.id)
    list.append(tab)
  }
  index.replaceWith(list)
  root.classList.add('tabs--enhanced')

  const select = (chosen: (typeof pairs)[number], focus = false) => {
    for (const pair of pairs) {
      const on = pair === chosen
      pair.tab.setAttribute('aria-selected', String(on))
      pair.tab.tabIndex = on ? 0 : -1
      if (on) pair.panel.removeAttribute('hidden')
      else pair.panel.setAttribute('hidden', 'until-found')
    }
    // The visitor chose this tab: bring it fully into the (sideways scrolling) list.
    if (focus) {
      chosen.tab.focus()
      chosen.tab.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    }
  }
  /** The tab whose section holds the element the address's #fragment names, if any. */
  const fromHash = () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))
    return target ? pairs.find((p) => p.panel.contains(target)) : undefined
  }

  const onClick = (event: Event) => {
    const pair = pairs.find((p) => p.tab === event.target || p.tab.contains(event.target as Node))
    if (pair) select(pair, true)
  }
  const onKey = (event: KeyboardEvent) => {
    const at = pairs.findIndex((p) => p.tab === event.target)
    if (at < 0) return
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: pairs.length - 1 }[event.key]
    if (to === undefined) return
    event.preventDefault()
    select(pairs[(to + pairs.length) % pairs.length]!, true)
  }
  const onHash = () => {
    const pair = fromHash()
    if (!pair) return
    select(pair)
    document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView()
  }
  const onFound = (event: Event) => {
    const pair = pairs.find((p) => p.panel === event.target)
    if (pair) select(pair)
  }
  list.addEventListener('click', onClick)
  list.addEventListener('keydown', onKey)
  root.addEventListener('beforematch', onFound)
  window.addEventListener('hashchange', onHash)
  // Opened at an address naming something inside a section: show that section and go there.
  if (fromHash()) onHash()
  else select(pairs[0]!)

  return () => {
    list.removeEventListener('click', onClick)
    list.removeEventListener('keydown', onKey)
    root.removeEventListener('beforematch', onFound)
    window.removeEventListener('hashchange', onHash)
    list.replaceWith(index)
    root.classList.remove('tabs--enhanced')
    for (const { panel } of pairs) {
      for (const name of ['role', 'tabindex', 'hidden']) panel.removeAttribute(name)
      panel.setAttribute('aria-labelledby', panel.dataset.labelledby ?? '')
      delete panel.dataset.labelledby
    }
  }
}
