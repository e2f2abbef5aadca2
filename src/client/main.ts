/** The browser runtime: small enhancements of server-rendered markup. */
import { languageCookie } from './language.ts'
import { mobileMenu } from './menu.ts'

languageCookie()
mobileMenu()
