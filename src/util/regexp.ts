/** `text` matched literally inside a regular expression. Example: 'a.b' -> 'a\\.b' */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
