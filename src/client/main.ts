/** The browser runtime: small enhancements of server-rendered markup. */
import { mountIslands } from './islands.ts'
import { languageCookie } from './language.ts'
import { mobileMenu } from './menu.ts'

languageCookie()
mobileMenu()
mountIslands(document)
