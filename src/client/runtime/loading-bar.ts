/**
 * The loading bar of a navigation, as Nuxt drew it: shown only when the page is still loading
 * after 200 ms, growing 2% every 100 ms (full after 5000 ms), full on arrival and hidden 500 ms
 * later; the failure colour when the navigation fails. Never on the first page load.
 */
export interface LoadingBar { start(): void; fail(): void; finish(): void }

export function loadingBar(label: string): LoadingBar {
  const bar = document.createElement('div')
  bar.className = 'loading-bar'
  bar.hidden = true
  bar.setAttribute('data-persist', '')
  bar.setAttribute('role', 'progressbar')
  bar.setAttribute('aria-label', label)
  bar.setAttribute('aria-valuemin', '0')
  bar.setAttribute('aria-valuemax', '100')
  document.body.append(bar)

  let percent = 0
  let timers: ReturnType<typeof setTimeout>[] = []
  const clear = () => { timers.forEach(clearTimeout); timers.forEach(clearInterval); timers = [] }
  const set = (value: number) => {
    percent = Math.min(100, value)
    bar.style.width = `${percent}%`
    bar.setAttribute('aria-valuenow', String(percent))
  }
  return {
    start() {
      clear()
      bar.hidden = true
      bar.classList.remove('is-failed')
      timers.push(setTimeout(() => {
        set(0)
        bar.hidden = false
        timers.push(setInterval(() => set(percent + 2), 100))
      }, 200))
    },
    fail() {
      bar.classList.add('is-failed')
    },
    finish() {
      clear()
      if (bar.hidden) return
      set(100)
      timers.push(setTimeout(() => { bar.hidden = true }, 500))
    },
  }
}
