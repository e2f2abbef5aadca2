/** Small line icons drawn for this site (24-unit grid, stroked with the text colour). Decorative. */
const paths = {
  arrow: 'M5 12h14M13 6l6 6-6 6',
  arrowUp: 'M12 19V5M6 11l6-6 6 6',
  chevronDown: 'M6 9l6 6 6-6',
  chevronLeft: 'M15 6l-6 6 6 6',
  chevronRight: 'M9 6l6 6-6 6',
  clock: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2',
  globe: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z',
  mail: 'M4 6h16v12H4zM4 7l8 6 8-6',
  mapPin: 'M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11zM12 7.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  menu: 'M4 7h16M4 12h16M4 17h16',
  pause: 'M9 6v12M15 6v12',
  phone: 'M6.6 3.5l2.6.4 1.2 4-1.9 1.5a11 11 0 0 0 6.1 6.1l1.5-1.9 4 1.2.4 2.6c-.3 1.4-1.6 2.6-3.1 2.6C9.9 20 4 14.1 4 6.6c0-1.5 1.2-2.8 2.6-3.1z',
  play: 'M8 5.5v13l10-6.5z',
  whatsapp: 'M4.5 20l1.2-4.1A8 8 0 1 1 8.4 18.6zM9 8.5c0 3.3 2.9 6.3 6.3 6.5l1.2-1.5-2-1-1 .9c-1.2-.5-2.3-1.6-2.8-2.8l.9-1-1-2z',
} as const

export type IconName = keyof typeof paths

export function Icon({ name, className = 'icon' }: { name: IconName; className?: string }) {
  return (
    <svg className={className} width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  )
}
