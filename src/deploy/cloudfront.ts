/**
 * Amazon S3 behind CloudFront: two CloudFront Functions (runtime cloudfront-js-2.0) and the
 * CloudFront KeyValueStore file they read. The functions hold no page list, so they stay the same
 * size whatever the site's size, and a page added or removed needs a new store, not new functions.
 * Pure.
 *
 * The store (_cloudfront/key-value-store.json, CloudFront's import format) has one key per address:
 *   "/contact/" -> "/contact/index.html"   a page (or a folder with its own rule, /admin/): the file answering it
 *   "/cn/*"     -> "/cn/404.html"          the 404 page of the addresses under /cn/
 *   "/*"        -> "/404.html"             the default language's 404 page, for every other address
 *
 * viewer-request:  /x/ -> its file; /x and /x/index.html -> 301 /x/ (query kept) when /x/ is a page;
 *                  any other page address -> the 404 page of the language its first segment names.
 * viewer-response: that 404 page answers with status 404; every response gets the security
 *                  headers (the folder's own replacing the site's under /admin/), HTML and other files
 *                  revalidate, fingerprinted assets are kept a year.
 */
import type { OutputFile, RouteTable, SiteConfig } from '../types.ts'
import { IMMUTABLE, IMMUTABLE_PATHS, REVALIDATE, type HeaderRule } from './static-hosts.ts'

/** CloudFront refuses function code over 10 KB. */
export const CLOUDFRONT_LIMIT = 10 * 1024

/** CloudFront's limits on a KeyValueStore import file ("File format for key-value pairs", CloudFront Developer Guide). */
export const KEY_VALUE_STORE_LIMITS = { fileBytes: 5 * 1024 * 1024, keyCharacters: 512, valueCharacters: 1024 }

export const KEY_VALUE_STORE_FILE = '_cloudfront/key-value-store.json'

export interface KeyValue { key: string; value: string }

/** The store's entries: pages, then each language's 404 page. */
export function keyValueEntries(table: RouteTable, site: SiteConfig, folders: HeaderRule[] = []): KeyValue[] {
  const entries: KeyValue[] = table.routes.filter((r) => r.status === 200).map((r) => ({ key: r.url, value: `/${r.output}` }))
  for (const prefix of folders.map(folderPrefix)) entries.push({ key: prefix, value: `${prefix}index.html` })
  // The default language's 404 page last, under "/*": the fallback for every address.
  const notFound = table.routes.filter((r) => r.status === 404).sort((a, b) => Number(a.locale === site.defaultLocale) - Number(b.locale === site.defaultLocale))
  for (const r of notFound) entries.push({ key: r.locale === site.defaultLocale ? '/*' : `${r.url.slice(0, r.url.lastIndexOf('/') + 1)}*`, value: r.url })
  return entries
}

/** `folders`: `_headers` rules of folders with headers of their own (the content editor's policy at /admin/*), applied over the site's. */
export function cloudFrontFunctions(table: RouteTable, site: SiteConfig, headers: Record<string, string>, folders: HeaderRule[] = []): OutputFile[] {
  const store = keyValueEntries(table, site, folders).map((entry) => json(entry))
  const data = `var HEADERS = ${json(lowerCaseKeys(headers))};\nvar FOLDERS = ${json(folders.map((f) => ({ prefix: folderPrefix(f), headers: lowerCaseKeys(f.headers) })))};\n`
    + `var IMMUTABLE_PREFIX = ${json(IMMUTABLE_PATHS.replace('*', ''))};\nvar IMMUTABLE = ${json(IMMUTABLE)};\nvar REVALIDATE = ${json(REVALIDATE)};\n`
  return [
    { path: '_cloudfront/viewer-request.js', contents: `${HEADER('viewer request')}${STORE}${VIEWER_REQUEST}` },
    { path: '_cloudfront/viewer-response.js', contents: `${HEADER('viewer response')}${STORE}${data}${VIEWER_RESPONSE}` },
    // One entry a line, so that two builds' stores compare line by line.
    { path: KEY_VALUE_STORE_FILE, contents: `{"data":[\n${store.join(',\n')}\n]}\n` },
  ]
}

const folderPrefix = (rule: HeaderRule) => rule.path.replace('*', '')

const HEADER = (event: string) => `// CloudFront Function for the ${event} event (cloudfront-js-2.0), written by clinic-build.\n// It reads the KeyValueStore associated with it, imported from key-value-store.json.\n`

const json = (value: unknown) => JSON.stringify(value)

const lowerCaseKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))

/**
 * Shared by both functions. Written in ES5.1 with the few later features cloudfront-js-2.0 lists
 * (import of 'cloudfront', async/await): tests/deploy/cloudfront.test.ts parses it so.
 */
const STORE = `import cf from 'cloudfront';

var store = cf.kvs();

/** The value of a key, or null: get() throws for a key the store does not hold. */
async function lookup(key) {
  try {
    return await store.get(key);
  } catch (e) {
    return null;
  }
}

function decode(uri) {
  try { return decodeURIComponent(uri); } catch (e) { return uri; }
}

/** The 404 page of the language the address's first segment names, else the default language's. */
async function notFoundPage(uri) {
  var segment = uri.split('/')[1];
  var page = segment ? await lookup('/' + segment + '/*') : null;
  return page || await lookup('/*');
}

/** An address of a page rather than a file: it ends with "/" or its last segment has no dot. */
function isPageAddress(uri) {
  return uri.charAt(uri.length - 1) === '/' || uri.slice(uri.lastIndexOf('/') + 1).indexOf('.') === -1;
}

var INDEX = '/index.html';

function isIndexFile(uri) {
  return uri.slice(-INDEX.length) === INDEX;
}
`

const VIEWER_REQUEST = `
function queryString(query) {
  var parts = [];
  for (var name in query) {
    var values = query[name].multiValue || [query[name]];
    for (var i = 0; i < values.length; i++) parts.push(values[i].value === '' ? name : name + '=' + values[i].value);
  }
  return parts.length ? '?' + parts.join('&') : '';
}

function redirect(location, query) {
  return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: location + queryString(query) } } };
}

async function handler(event) {
  var request = event.request;
  var uri = decode(request.uri);
  if (isIndexFile(uri)) {
    var folder = uri.slice(0, 1 - INDEX.length);
    if (await lookup(folder)) return redirect(request.uri.slice(0, 1 - INDEX.length), request.querystring);
  } else if (!isPageAddress(uri)) {
    return request;
  } else if (uri.charAt(uri.length - 1) !== '/') {
    if (await lookup(uri + '/')) return redirect(request.uri + '/', request.querystring);
  } else {
    var file = await lookup(uri);
    if (file) {
      request.uri = encodeURI(file);
      return request;
    }
  }
  var notFound = await notFoundPage(uri);
  if (notFound) request.uri = encodeURI(notFound);
  return request;
}
`

const VIEWER_RESPONSE = `
/** Whether the answer is a 404 page: the address the viewer asked for, or the file it was rewritten to. */
async function isNotFound(uri) {
  if (uri.slice(-9) === '/404.html') return (await lookup(uri.slice(0, -8) + '*')) === uri;
  if (isIndexFile(uri)) return !(await lookup(uri.slice(0, 1 - INDEX.length)));
  if (isPageAddress(uri)) return !(await lookup(uri));
  return false;
}

async function handler(event) {
  var response = event.response;
  var uri = decode(event.request.uri);
  if (response.statusCode === 200 && await isNotFound(uri)) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  for (var name in HEADERS) response.headers[name] = { value: HEADERS[name] };
  var kept = uri.indexOf(IMMUTABLE_PREFIX) === 0 && (response.statusCode === 200 || response.statusCode === 304);
  response.headers['cache-control'] = { value: kept ? IMMUTABLE : REVALIDATE };
  for (var i = 0; i < FOLDERS.length; i++) {
    if (uri.indexOf(FOLDERS[i].prefix) !== 0) continue;
    for (var own in FOLDERS[i].headers) response.headers[own] = { value: FOLDERS[i].headers[own] };
  }
  return response;
}
`
