/** The clinic's mark: an original geometric leaf, drawn in SVG. */
export function Logo() {
  return (
    <svg className="brand__mark" width="36" height="36" viewBox="0 0 36 36" aria-hidden="true" focusable="false">
      <circle cx="18" cy="18" r="17" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M18 7c6 5 7 13 0 22C11 20 12 12 18 7z" fill="currentColor" opacity=".85" />
      <path d="M18 12v15" stroke="#fff" strokeWidth="1.2" />
    </svg>
  )
}
