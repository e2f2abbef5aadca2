/**
 * The link check reads the built site inside its thread (folder-fetch.ts), not over HTTP: each
 * answer must be the one `clinic-build serve` gives over a real socket, or linkinator would judge
 * a site other than the one deployed.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { folderFetch } from '../../src/check/folder-fetch.ts'
import { loadHeaderRules, startServer, type RunningServer } from '../../src/serve/index.ts'
import { buildSite } from '../support/browser.ts'

let dist: string
let server: RunningServer

beforeAll(async () => {
  dist = await buildSite()
  writeFileSync(join(dirname(dist), 'outside.txt'), 'not part of the site')
  symlinkSync(join(dirname(dist), 'outside.txt'), join(dist, 'leads-out.txt'))
  server = await startServer({ dir: dist, port: 0, unchanging: true, compress: false, headerRules: await loadHeaderRules(dist, () => {}) })
})
afterAll(() => server?.close())

/** What a client sees of an answer: status, where it redirects, its type and its bytes. */
async function seen(answer: Promise<Response>) {
  const r = await answer
  return { status: r.status, location: r.headers.get('location'), type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()).toString('base64') }
}

const PATHS = [
  '/', '/contact/', '/contact', '/contact?x=1&y=%20z', '/cn/', '/cn', '/cn/contact/', '/index.html', '/contact/index.html',
  '/contact/index.html/', '/404.html', '/cn/404.html', '/nope/', '/nope', '/cn/nope/', '/cn/nope/deeper/', '/favicon.ico',
  '/robots.txt', '/sitemap.xml', '/_headers', '/.clinic', '/leads-out.txt', '/a%2fb/', '/%ZZ/', '/a%00b', '/cn//contact/',
  `/${'x'.repeat(1100)}/`, '/%E5%85%B3%E4%BA%8E/',
]

describe('answers from the folder are the server\'s', () => {
  test.each(['GET', 'HEAD'])('%s of pages, files, redirects, 404 pages and refused paths', async (method) => {
    const inThread = folderFetch(dist, server.url)
    const assets = (await (await fetch(`${server.url}/`)).text()).match(/\/assets\/[^"?#]+/g) ?? []
    expect(assets.length).toBeGreaterThan(0)
    for (const path of [...PATHS, ...new Set(assets)]) {
      const init = { method, redirect: 'manual' } as const
      expect(await seen(inThread(`${server.url}${path}`, init)), `${method} ${path}`).toEqual(await seen(fetch(`${server.url}${path}`, init)))
    }
  })

  test('a folder with no 404 page answers a missing page with the server\'s plain 404', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'clinic-bare-'))
    mkdirSync(join(bare, 'about'))
    writeFileSync(join(bare, 'index.html'), '<!doctype html><title>Home</title>')
    writeFileSync(join(bare, 'about', 'index.html'), '<!doctype html><title>About</title>')
    const bareServer = await startServer({ dir: bare, port: 0, unchanging: true, compress: false })
    try {
      for (const path of ['/nope/', '/about', '/about/']) {
        expect(await seen(folderFetch(bare, bareServer.url)(`${bareServer.url}${path}`, { redirect: 'manual' })), path).toEqual(await seen(fetch(`${bareServer.url}${path}`, { redirect: 'manual' })))
      }
    } finally {
      await bareServer.close()
    }
  })

  test('a method other than GET and HEAD is refused, as by the server', async () => {
    const init = { method: 'POST', body: 'x', redirect: 'manual' } as const
    expect(await seen(folderFetch(dist, server.url)(`${server.url}/contact/`, init))).toEqual(await seen(fetch(`${server.url}/contact/`, init)))
  })

  test('other origins are handed on, not answered from the folder', async () => {
    const asked: string[] = []
    const elsewhere = (async (input: string | URL | Request) => { asked.push(String(input)); return new Response('elsewhere') }) as typeof fetch
    const inThread = folderFetch(dist, 'http://site.invalid', elsewhere)
    expect(await (await inThread('https://example.com/page')).text()).toBe('elsewhere')
    expect((await inThread('http://site.invalid/contact/')).status).toBe(200)
    expect(asked).toEqual(['https://example.com/page'])
  })
})
