/**
 * The online/offline flag (`data-connection` on <html>) and a polite notice while offline, in the
 * page's language. The notice element stays in the document (empty when online) so that screen
 * readers announce its changes.
 */
import { readData } from './data.ts'

export interface Connection {
  /** A navigation failed for want of a network: the page on screen stays, and says why. */
  navigationFailed(): void
  /** Re-reads the state and the wording (after a page change). */
  refresh(): void
}

export function watchConnection(): Connection {
  const notice = document.createElement('div')
  notice.className = 'connection-notice'
  notice.setAttribute('role', 'status')
  notice.setAttribute('data-persist', '')
  document.body.append(notice)
  const refresh = () => {
    const online = navigator.onLine
    document.documentElement.dataset.connection = online ? 'online' : 'offline'
    notice.textContent = online ? '' : readData()?.text.offline ?? ''
  }
  addEventListener('online', refresh)
  addEventListener('offline', refresh)
  refresh()
  return {
    navigationFailed() { notice.textContent = readData()?.text.offlineNavigation ?? '' },
    refresh,
  }
}
