/**
 * Amazon S3 behind CloudFront: two CloudFront Functions (runtime cloudfront-js-2.0, written in
 * plain ES5 so either runtime runs them), generated with the site because they carry its list of
 * pages. Pure.
 *
 * viewer-request:  /x -> 301 /x/ (query kept) when /x/ is a page; /x/ -> /x/index.html; a page
 *                  address that is no page -> the 404 page of the language its first segment names.
 * viewer-response: that 404 page answers with status 404; every response gets the security
 *                  headers, fingerprinted assets a year of caching.
 *
 * CloudFront Functions are limited to 10 KB each; `clinic-build check` reports a function over it
 * (src/check/hosts.ts): the page list outgrows it at a few hundred pages.
 */
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'
import { IMMUTABLE_PATHS, type HeaderRule } from './static-hosts.ts'

export const CLOUDFRONT_LIMIT = 10 * 1024

/** `folders`: `_headers` rules of folders with headers of their own (the content editor's policy at /admin/*), applied over the site's. */
export function cloudFrontFunctions(table: RouteTable, site: SiteConfig, headers: Record<string, string>, folders: HeaderRule[] = []): OutputFile[] {
  // A folder with its own rule (/admin/) is answered by its index.html, as a page is.
  const prefixes = folders.map((f) => f.path.replace('*', ''))
  const pages = Object.fromEntries([...table.routes.filter((r) => r.status === 200).map((r) => r.url), ...prefixes].map((url) => [url, 1]))
  const notFound: Record<string, string> = {}
  for (const r of table.routes) if (r.status === 404) notFound[r.locale === site.defaultLocale ? '' : r.locale] = r.url
  const data = `var PAGES = ${json(pages)};\nvar NOT_FOUND = ${json(notFound)};\n`
  return [
    { path: '_cloudfront/viewer-request.js', contents: `${HEADER('viewer request')}${data}${VIEWER_REQUEST}` },
    { path: '_cloudfront/viewer-response.js', contents: `${HEADER('viewer response')}${data}var HEADERS = ${json(lowerCaseKeys(headers))};\nvar IMMUTABLE = ${json(IMMUTABLE_PATHS.replace('*', ''))};\nvar FOLDERS = ${json(folders.map((f, i) => ({ prefix: prefixes[i], headers: lowerCaseKeys(f.headers) })))};\n${VIEWER_RESPONSE}` },
  ]
}

const HEADER = (event: string) => `// CloudFront Function for the ${event} event (cloudfront-js-2.0), written by clinic-build from the site.\n`

const json = (value: unknown) => JSON.stringify(value)

const lowerCaseKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))

/** Shared by both functions: which 404 page answers for an address. */
const NOT_FOUND_PAGE = `
function decode(uri) {
  try { return decodeURIComponent(uri); } catch (e) { return uri; }
}

function notFoundPage(uri) {
  return NOT_FOUND[uri.split('/')[1]] || NOT_FOUND[''];
}

/** An address of a page rather than a file: it ends with "/" or its last segment has no dot. */
function isPageAddress(uri) {
  return uri.charAt(uri.length - 1) === '/' || uri.slice(uri.lastIndexOf('/') + 1).indexOf('.') === -1;
}
`

const VIEWER_REQUEST = `${NOT_FOUND_PAGE}
function queryString(query) {
  var parts = [];
  for (var name in query) {
    var values = query[name].multiValue || [query[name]];
    for (var i = 0; i < values.length; i++) parts.push(values[i].value === '' ? name : name + '=' + values[i].value);
  }
  return parts.length ? '?' + parts.join('&') : '';
}

function handler(event) {
  var request = event.request;
  var uri = decode(request.uri);
  if (!isPageAddress(uri)) return request;
  if (uri.charAt(uri.length - 1) !== '/' && PAGES[uri + '/']) {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: request.uri + '/' + queryString(request.querystring) } } };
  }
  request.uri = PAGES[uri] ? request.uri + 'index.html' : notFoundPage(uri);
  return request;
}
`

const VIEWER_RESPONSE = `${NOT_FOUND_PAGE}
function handler(event) {
  var response = event.response;
  var uri = decode(event.request.uri);
  var missing = isPageAddress(uri) ? !PAGES[uri] : uri === notFoundPage(uri);
  if (missing && response.statusCode === 200) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  for (var name in HEADERS) response.headers[name] = { value: HEADERS[name] };
  for (var i = 0; i < FOLDERS.length; i++) {
    if (uri.indexOf(FOLDERS[i].prefix) !== 0) continue;
    for (var own in FOLDERS[i].headers) response.headers[own] = { value: FOLDERS[i].headers[own] };
  }
  if (uri.indexOf(IMMUTABLE) === 0) response.headers['cache-control'] = { value: 'public, max-age=31536000, immutable' };
  return response;
}
`
