/**
 * Structured data (schema.org as JSON-LD) describing each page in its own language, from the same
 * data the page shows. Never Review, AggregateRating or FAQPage: self-serving reviews and ratings
 * break Singapore's advertising rules, and FAQ rich results are gone. Pure.
 */
import type { Page } from '../page/index.ts'
import type { Doc, Route } from '../types.ts'
import { openGraphImage } from './open-graph.ts'

export type JsonLd = Record<string, unknown>

/** The logo for search engines, generated with the Open Graph images. */
export const LOGO_PATH = '/og/logo.png'

const DAY_NAMES = { Mo: 'Monday', Tu: 'Tuesday', We: 'Wednesday', Th: 'Thursday', Fr: 'Friday', Sa: 'Saturday', Su: 'Sunday' } as const

/** Every node that describes the page; none for error pages. */
export function structuredData(page: Page): JsonLd[] {
  const { route } = page
  if (route.status !== 200) return []
  const nodes: JsonLd[] = []
  if (route.template === 'home' || route.template === 'contact') nodes.push(clinic(page), webPage(page, route.template === 'home' ? 'WebPage' : 'ContactPage', clinicId(page)))
  if (route.path !== '/') nodes.push(breadcrumbs(page))
  if (route.template === 'doctor') nodes.push(physician(page), webPage(page, 'ProfilePage', physicianId(page)))
  if (route.template === 'article') nodes.push(blogPosting(page))
  if (route.template === 'service' || route.template === 'article') nodes.push(medicalWebPage(page))
  return nodes
}

/** The nodes as the text of a `<script type="application/ld+json">`: nothing in it can close the element. */
export function jsonLdScript(nodes: JsonLd[]): string {
  return JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes })
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

const absolute = (page: Page, url: string) => page.site.baseUrl + url
const clinicId = (page: Page) => `${page.site.baseUrl}/#clinic`
const physicianId = (page: Page) => `${absolute(page, page.route.url)}#physician`

/** The clinic as the contact page shows it: address, map position, numbers and opening hours. */
function clinic(page: Page): JsonLd {
  const { site } = page
  const a = site.address
  return {
    '@type': 'MedicalClinic',
    '@id': clinicId(page),
    name: site.name,
    legalName: site.legalName,
    url: absolute(page, page.url('/')),
    logo: absolute(page, LOGO_PATH),
    image: absolute(page, openGraphImage(page.route).url),
    telephone: site.phone,
    email: site.email,
    address: { '@type': 'PostalAddress', streetAddress: `${a.building}, ${a.unit}, ${a.street}`, addressLocality: a.city, postalCode: a.postalCode, addressCountry: a.country },
    geo: { '@type': 'GeoCoordinates', latitude: site.geo.lat, longitude: site.geo.lng },
    hasMap: site.map.linkUrl,
    openingHoursSpecification: site.openingHours.map((h) => ({
      // schema.org's Time is hh:mm:ss; site.yaml writes hh:mm.
      '@type': 'OpeningHoursSpecification', dayOfWeek: h.days.map((d) => `https://schema.org/${DAY_NAMES[d]}`), opens: `${h.opens}:00`, closes: `${h.closes}:00`,
    })),
  }
}

/**
 * The page itself, in its language, about the clinic or the doctor it describes: schema.org gives
 * inLanguage to pages (creative works), not to an organisation or a person.
 */
function webPage(page: Page, type: 'WebPage' | 'ContactPage' | 'ProfilePage', subject: string): JsonLd {
  return {
    '@type': type,
    url: absolute(page, page.route.url),
    name: page.doc?.data.title,
    inLanguage: page.locale.lang,
    [type === 'ProfilePage' ? 'mainEntity' : 'about']: { '@id': subject },
  }
}

/** A reference to the clinic, for pages that do not describe it in full. */
function clinicReference(page: Page): JsonLd {
  return { '@type': 'MedicalClinic', '@id': clinicId(page), name: page.site.name, url: absolute(page, page.url('/')), logo: absolute(page, LOGO_PATH) }
}

/** Home, then every page above this one that exists, then this page. */
function breadcrumbs(page: Page): JsonLd {
  const { route, table } = page
  const parts = route.url.split('/').filter(Boolean)
  const trail = parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}/`)
  const crumbs = [page.url('/'), ...trail].map((url) => table.byUrl.get(url)).filter((r): r is Route => r !== undefined && r.status === 200)
  const unique = crumbs.filter((r, i) => crumbs.findIndex((c) => c.url === r.url) === i)
  return {
    '@type': 'BreadcrumbList',
    itemListElement: unique.map((r, i) => ({ '@type': 'ListItem', position: i + 1, name: crumbName(page, r), item: absolute(page, r.url) })),
  }
}

function crumbName(page: Page, route: Route): string {
  if (route.template === 'home') return page.t('breadcrumb.home')
  const title = page.collections.byId.get(route.docId!)?.data.title ?? ''
  return route.page && route.page.number > 1 ? `${title} (${page.t('pagination.page', { number: route.page.number })})` : title
}

/** A doctor as the profile shows them: name, title by register, registration number, qualifications. */
function physician(page: Page): JsonLd {
  const data = page.doc!.data
  const registration = page.site.doctors.find((d) => `/${d.slug}/` === page.doc!.path)
  return {
    '@type': 'IndividualPhysician',
    '@id': physicianId(page),
    name: data.name,
    url: absolute(page, page.route.url),
    description: data.description,
    knowsLanguage: data.languages,
    hasCredential: [
      ...(registration ? [{
        '@type': 'EducationalOccupationalCredential', credentialCategory: 'registration', name: data.role, identifier: registration.mcr,
        recognizedBy: { '@type': 'Organization', name: 'Singapore Medical Council' },
      }] : []),
      ...(data.qualifications ?? []).map((q) => ({ '@type': 'EducationalOccupationalCredential', name: q })),
    ],
    memberOf: (data.memberships ?? []).map((m) => ({ '@type': 'Organization', name: m })),
    practicesAt: clinicReference(page),
  }
}

/** An article: headline, byline, dates as shown, and the clinic as publisher. */
function blogPosting(page: Page): JsonLd {
  const data = page.doc!.data
  const author = page.doctor(data.author!)
  return {
    '@type': 'BlogPosting',
    headline: data.title,
    description: data.description,
    url: absolute(page, page.route.url),
    mainEntityOfPage: absolute(page, page.route.url),
    image: absolute(page, openGraphImage(page.route).url),
    datePublished: data.date,
    dateModified: [data.date!, data.reviewedOn!].sort().at(-1),
    author: author ? person(page, author) : undefined,
    publisher: clinicReference(page),
    keywords: data.tags?.join(', '),
    inLanguage: page.locale.lang,
  }
}

/** Health information with the doctor who reviewed it and when, as the page's "medically reviewed" line says. */
function medicalWebPage(page: Page): JsonLd {
  const data = page.doc!.data
  const reviewer = page.doctor(data.reviewedBy!)
  return {
    '@type': 'MedicalWebPage',
    name: data.title,
    description: data.description,
    url: absolute(page, page.route.url),
    reviewedBy: reviewer ? person(page, reviewer) : undefined,
    lastReviewed: data.reviewedOn,
    inLanguage: page.locale.lang,
  }
}

function person(page: Page, doctor: Doc): JsonLd {
  return { '@type': 'Person', name: doctor.data.title, url: absolute(page, page.url(doctor.path)) }
}
