/** The site configuration (content/site.yaml): its schema, and the types that follow from it. */
import type { z } from 'zod'
import { lazySchema } from './lazy.ts'

/** The schema, made on first use (./lazy.ts). */
export const siteSchema = lazySchema((z) => {
  const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time such as "09:00"')
  const day = z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])
  const optionalId = (pattern: RegExp, example: string) => z.union([z.literal(''), z.string().regex(pattern, `must look like ${example}`)])

  const localeSchema = z.strictObject({
    /** URL prefix and content folder. Example: 'cn' */
    code: z.string().regex(/^[a-z][a-z-]*$/, 'must be lower-case letters, e.g. "cn"'),
    /** <html lang>. Example: 'zh' */
    lang: z.string().min(1),
    /** hreflang value. Example: 'zh' */
    hreflang: z.string().min(1),
    /** Message file name in locales/. Example: 'zh-CN' */
    messages: z.string().min(1),
    /** og:locale. Example: 'zh_CN' */
    ogLocale: z.string().min(1),
  })

  /**
   * Where the contact form delivers: `local` (the endpoint of `clinic-build dev` and `serve`),
   * `endpoint` (an HTTPS form service such as Formspree) or `netlify` (Netlify Forms).
   * An `endpoint` without `delivery` means `delivery: endpoint`, as in earlier configurations.
   */
  const contactFormSchema = z.strictObject({
    delivery: z.enum(['local', 'endpoint', 'netlify']).optional(),
    endpoint: z.union([z.literal(''), z.url({ protocol: /^https$/, error: 'must be an https:// address' })]).default(''),
    /** Netlify's form name (the hidden `form-name` field). */
    formName: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes, e.g. "enquiry"').default('enquiry'),
  }).superRefine((form, ctx) => {
    const delivery = form.delivery ?? (form.endpoint ? 'endpoint' : 'local')
    if (delivery === 'endpoint' && !form.endpoint) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'is required when delivery is "endpoint": the https:// address of the form service' })
    if (delivery !== 'endpoint' && form.endpoint) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: `is used only with delivery "endpoint" (delivery is "${delivery}"): empty it or change delivery` })
  }).transform((form) => ({ ...form, delivery: form.delivery ?? (form.endpoint ? 'endpoint' as const : 'local' as const) }))

  /**
   * The content editor at /admin/ (src/admin/): `false` leaves it out of the build; otherwise the
   * Git host it saves to. GitHub needs the repository; Netlify's Git Gateway needs nothing more
   * than Netlify Identity turned on for the site.
   */
  const branch = z.string().regex(/^[\w./-]+$/, 'must be a branch name such as main').default('main')
  const gitGateway = { name: 'git-gateway' as const, branch: 'main' }
  // `admin: false` is read as { enabled: false }, so that a wrong section is reported field by field.
  const adminSchema = z.preprocess((value) => (value === false ? { enabled: false } : value), z.strictObject({
    enabled: z.boolean().default(true),
    backend: z.discriminatedUnion('name', [
      z.strictObject({
        name: z.literal('github'),
        repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must name the repository as owner/name, e.g. amberlin/website'),
        branch,
        /** The OAuth service that signs editors in to GitHub (Netlify's by default). */
        authUrl: z.url({ protocol: /^https$/, error: 'must be an https:// address' }).optional(),
      }),
      z.strictObject({ name: z.literal('git-gateway'), branch }),
    ], { error: 'must be "github" or "git-gateway"' }).default(gitGateway),
  }, { error: 'must be false, or a section with "backend" (name: github or git-gateway)' }))

  return z.strictObject({
    name: z.string().min(1),
    legalName: z.string().min(1),
    uen: z.string().min(1),
    baseUrl: z.string().regex(/^https?:\/\/[^/]+$/, 'must be an origin such as https://www.example.sg, without a trailing slash'),
    address: z.strictObject({
      street: z.string(), unit: z.string(), building: z.string(),
      postalCode: z.string().regex(/^\d{6}$/, 'must be a six-digit Singapore postal code'),
      city: z.string(), country: z.string().length(2),
    }),
    geo: z.strictObject({ lat: z.number(), lng: z.number() }),
    phone: z.string().min(8),
    whatsapp: z.string().regex(/^\d{8,15}$/, 'must be digits only, country code first, e.g. 6581234567'),
    email: z.email(),
    dataProtectionOfficer: z.email(),
    openingHours: z.array(z.strictObject({ days: z.array(day).min(1), opens: time, closes: time })),
    closedOnPublicHolidays: z.boolean(),
    doctors: z.array(z.strictObject({
      slug: z.string().regex(/^dr-[a-z0-9-]+$/, 'must start with "dr-", e.g. dr-tan-wei-ming'),
      mcr: z.string().min(1),
      register: z.enum(['specialist', 'general']),
      specialty: z.string().optional(),
    })).min(1),
    locales: z.array(localeSchema).min(1),
    defaultLocale: z.string(),
    singleLocaleSections: z.record(z.string(), z.string()).default({}),
    blog: z.strictObject({ pageSize: z.number().int().positive() }),
    fonts: z.strictObject({ stylesheet: z.url(), preconnect: z.array(z.url()) }),
    map: z.strictObject({ embedUrl: z.url(), linkUrl: z.url() }),
    analytics: z.strictObject({
      gtmId: optionalId(/^GTM-[A-Z0-9]+$/, 'GTM-XXXXXXX'),
      gaId: optionalId(/^G-[A-Z0-9]+$/, 'G-XXXXXXXXXX'),
      pageViewEvent: z.string().min(1).default('page_view'),
    }),
    contactForm: contactFormSchema,
    /** The host the site is deployed to: it decides the rules written into `_redirects`. */
    deploy: z.strictObject({
      host: z.enum(['netlify', 'cloudflare-pages', 'github-pages', 's3-cloudfront']).default('netlify'),
      /** Netlify only: a first visit to `/` is redirected to the home page of the browser's language. */
      languageRedirect: z.boolean().default(false),
    }).default({ host: 'netlify', languageRedirect: false }),
    admin: adminSchema.default({ enabled: true, backend: gitGateway }),
    /**
     * Seconds the build gives one page's Markdown to be read, per 256 KB of it begun; a page
     * that takes longer is stopped and reported (src/render/shards.ts).
     */
    bodyTimeLimit: z.number().positive().max(600).default(5),
  }).superRefine((site, ctx) => {
    if (site.deploy.languageRedirect && site.deploy.host !== 'netlify') {
      ctx.addIssue({ code: 'custom', path: ['deploy', 'languageRedirect'], message: `is supported on Netlify only (${site.deploy.host} cannot redirect by language in a static file): set it to false` })
    }
    const codes = site.locales.map((l) => l.code)
    if (!codes.includes(site.defaultLocale)) {
      ctx.addIssue({ code: 'custom', path: ['defaultLocale'], message: `must be one of the locale codes (${codes.join(', ')})` })
    }
    for (const [section, code] of Object.entries(site.singleLocaleSections)) {
      if (!codes.includes(code)) ctx.addIssue({ code: 'custom', path: ['singleLocaleSections', section], message: `must be one of the locale codes (${codes.join(', ')})` })
    }
  })
})

export type SiteConfig = z.infer<ReturnType<typeof siteSchema>>
export type LocaleConfig = SiteConfig['locales'][number]
