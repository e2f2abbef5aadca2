import type { Page } from '../src/page/index.ts'
import { RUNTIME_DATA_ID } from '../src/shared/runtime-data.ts'
import { InlineScripts } from './parts/InlineScripts.tsx'
import { HERO_SIZES } from './parts/Picture.tsx'
import { SearchMeta } from './parts/SearchMeta.tsx'
import { WebFonts } from './parts/WebFonts.tsx'

/** The page title: the company name alone on the home page, "<page> | <company>" elsewhere. */
export function pageTitle(page: Page): string {
  if (page.route.template === 'home') return page.site.name
  const title = page.route.status === 404 ? page.t('notFound.title') : page.doc?.data.title ?? ''
  const numbered = page.route.page && page.route.page.number > 1 ? `${title} (${page.t('pagination.page', { number: page.route.page.number })})` : title
  return `${numbered} | ${page.site.name}`
}

export function Head({ page }: { page: Page }) {
  const { route, site, locale, assets } = page
  const title = pageTitle(page)
  const description = page.doc?.data.description ?? page.t('notFound.description')
  const absolute = (url: string) => site.baseUrl + url
  const alternates = site.locales.filter((l) => route.alternates[l.code])
  const indexable = route.status === 200 && route.template !== 'thank-you'
  const hero = page.hero()
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title}</title>
      <meta name="description" content={description} />
      {!indexable && <meta name="robots" content="noindex" />}
      {route.status === 200 && <link rel="canonical" href={absolute(route.url)} />}
      {alternates.length > 1 && alternates.map((l) => (
        <link key={l.code} rel="alternate" hrefLang={l.hreflang} href={absolute(route.alternates[l.code]!)} />
      ))}
      {alternates.length > 1 && route.alternates[site.defaultLocale] && (
        <link rel="alternate" hrefLang="x-default" href={absolute(route.alternates[site.defaultLocale]!)} />
      )}
      <meta property="og:type" content={route.template === 'article' ? 'article' : 'website'} />
      <meta property="og:site_name" content={site.name} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {route.status === 200 && <meta property="og:url" content={absolute(route.url)} />}
      <meta property="og:locale" content={locale.ogLocale} />
      {alternates.filter((l) => l.code !== locale.code).map((l) => (
        <meta key={l.code} property="og:locale:alternate" content={l.ogLocale} />
      ))}
      <InlineScripts />
      <SearchMeta page={page} />
      <WebFonts page={page} />
      <link rel="stylesheet" href={assets.stylesheet} />
      {/* The first paint waits for the markup up to the runtime data, just after the footer: on a
          slow connection a page painted half-parsed moves as its later parts arrive (a header item
          pushes its neighbours aside). Browsers without rel=expect ignore it. */}
      <link rel="expect" href={`#${RUNTIME_DATA_ID}`} blocking="render" />
      {hero && (
        <link rel="preload" as="image" type={hero.set.sources[0]!.type} imageSrcSet={hero.set.sources[0]!.srcset} imageSizes={HERO_SIZES} fetchPriority="high" />
      )}
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <link rel="icon" href="/favicon-32.png" sizes="32x32" type="image/png" />
      <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
      <meta name="theme-color" content="#fbf8f3" />
      {assets.scripts.map((src) => <script key={src} type="module" src={src} />)}
    </head>
  )
}
