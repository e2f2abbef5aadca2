/**
 * A doctor's initials in a drawn roundel: the site shows no photographs of people.
 * Initials are taken from the capitalised words of the name after its title ("Dr Evelyn Quah" ->
 * "EQ"); a name written in Chinese characters shows its surname, as a seal would ("柯思敏医生" -> "柯").
 */
export function Monogram({ name, size = 96 }: { name: string; size?: number }) {
  const words = name.replace(/^(Dr\.?|Prof\.?)\s+/i, '').split(/\s+/).filter((w) => /^\p{Lu}/u.test(w))
  const initials = /^\p{Script=Han}/u.test(name) ? name[0]!
    : words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? name).slice(0, 2)
  return (
    <svg className="monogram" width={size} height={size} viewBox="0 0 96 96" aria-hidden="true" focusable="false">
      <circle cx="48" cy="48" r="47" className="monogram__disc" />
      <circle cx="48" cy="48" r="41" className="monogram__ring" />
      <text x="48" y="49" textAnchor="middle" dominantBaseline="central" className="monogram__text">{initials}</text>
    </svg>
  )
}
