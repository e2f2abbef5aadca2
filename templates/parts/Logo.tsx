/** The clinic's mark: an original geometric leaf in a ring, drawn in SVG. */
export function Logo() {
  return (
    <svg className="brand__mark" width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="18.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
      <path d="M20 8.5c6.6 5.4 7.6 14.2 0 23-7.6-8.8-6.6-17.6 0-23z" fill="currentColor" />
      <path d="M20 13.5v15.5M20 19l3.2-2.6M20 23.5l-3.2-2.6" stroke="var(--color-surface, #fff)" strokeWidth="1.1" strokeLinecap="round" fill="none" />
    </svg>
  )
}
