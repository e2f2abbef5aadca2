/**
 * `clinic-build serve`: the built site answered like the CDN will answer it. A real server on
 * 127.0.0.1, real files, requests sent as raw bytes where URL normalising would hide a bug.
 */
import { spawn } from 'node:child_process'
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadHeaderRules, startServer, type RunningServer } from '../../src/serve/index.ts'
import { buildSite } from '../support/browser.ts'
import { BIN, copySite } from '../support/helpers.ts'
import { get, raw, rawGet } from '../support/http.ts'

const SECRET = 'SECRET-OUTSIDE-THE-SITE'
let dist: string
let server: RunningServer
let url: string

beforeAll(async () => {
  dist = await buildSite()
  // A file beside the served folder that no request may read, and a link inside it leading there.
  writeFileSync(join(dirname(dist), 'secret.txt'), SECRET)
  symlinkSync(join(dirname(dist), 'secret.txt'), join(dist, 'leak.txt'))
  writeFileSync(join(dist, '_headers'), '# as the deploy step writes it\n/*\n  X-Frame-Options: DENY\n/assets/*\n  X-Asset: yes\n')
  server = await startServer({ dir: dist, port: 0, headerRules: await loadHeaderRules(dist, (m) => { throw new Error(m) }) })
  url = server.url
})
afterAll(() => server?.close())

const file = (path: string) => readFileSync(join(dist, path))
const asset = (ext: string) => readFileSync(join(dist, 'index.html'), 'utf8').match(new RegExp(`/assets/[^"]+\\.${ext}`))![0]

describe('addresses', () => {
  test('a page without its trailing slash, or by its index.html, redirects permanently to it, query kept', async () => {
    const r = await get(`${url}/contact?utm_source=a&x=%20y`)
    expect(r.status).toBe(308)
    expect(r.headers.location).toBe('/contact/?utm_source=a&x=%20y')
    expect((await get(`${url}/cn/services`)).headers.location).toBe('/cn/services/')
    // One address a page, as Cloudflare Pages answers (tests/deploy/hosts.test.ts): its index.html redirects too.
    const index = await get(`${url}/cn/contact/index.html?a=1`)
    expect([index.status, index.headers.location]).toEqual([308, '/cn/contact/?a=1'])
    expect((await get(`${url}/index.html`)).headers.location).toBe('/')
    expect((await get(`${url}/robots.txt`)).status).toBe(200)
    const page = await get(`${url}/contact/?utm_source=a`)
    expect(page.status).toBe(200)
    expect(page.body.equals(file('contact/index.html'))).toBe(true)
  })

  test('an unknown path answers 404 with the 404 page of its language', async () => {
    const cn = await get(`${url}/cn/no-such-page/`)
    expect(cn.status).toBe(404)
    expect(cn.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(cn.body.equals(file('cn/404.html'))).toBe(true)
    const en = await get(`${url}/no-such-page`)
    expect(en.status).toBe(404)
    expect(en.body.equals(file('404.html'))).toBe(true)
    expect(en.body.equals(cn.body)).toBe(false)
    expect((await get(`${url}/blog/no-such-article/`)).body.equals(file('404.html'))).toBe(true)
    expect((await get(`${url}/assets/`)).status).toBe(404)
  })

  test('a file asked for as a folder, and the host files, are not found', async () => {
    expect((await get(`${url}/robots.txt/`)).status).toBe(404)
    expect((await get(`${url}/_headers`)).status).toBe(404)
  })

  test('only GET and HEAD read files', async () => {
    const post = await get(`${url}/`, {}, 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
    const head = await get(`${url}/`, {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
  })
})

describe('headers', () => {
  test('content types carry their charset', async () => {
    const types: Record<string, string> = {
      '/': 'text/html; charset=utf-8',
      [asset('css')]: 'text/css; charset=utf-8',
      [asset('js')]: 'text/javascript; charset=utf-8',
      '/sitemap.xml': 'text/xml; charset=utf-8',
      '/robots.txt': 'text/plain; charset=utf-8',
      '/favicon.svg': 'image/svg+xml; charset=utf-8',
    }
    for (const [path, type] of Object.entries(types)) expect([path, (await get(`${url}${path}`)).headers['content-type']]).toEqual([path, type])
  })

  test('content-hashed assets are immutable for a year; pages revalidate', async () => {
    const css = await get(`${url}${asset('css')}`)
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const page = await get(`${url}/services/`)
    expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate')
    expect(page.headers.etag).toBeTruthy()
    expect((await get(`${url}/services/`, { 'If-None-Match': page.headers.etag as string })).status).toBe(304)
    expect((await get(`${url}/robots.txt`)).headers['cache-control']).toBe('public, max-age=0, must-revalidate')
  })

  test('headers from the build\'s _headers are applied', async () => {
    expect((await get(`${url}/`)).headers['x-frame-options']).toBe('DENY')
    const css = await get(`${url}${asset('css')}`)
    expect(css.headers['x-frame-options']).toBe('DENY')
    expect(css.headers['x-asset']).toBe('yes')
    expect((await get(`${url}/`)).headers['x-asset']).toBeUndefined()
  })

  test('brotli or gzip when the client accepts them, the same bytes once decoded', async () => {
    const plain = file('services/index.html')
    const br = await get(`${url}/services/`, { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toBe('Accept-Encoding')
    expect(br.body.length).toBeLessThan(plain.length / 2)
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true)
    const gz = await get(`${url}/services/`, { 'Accept-Encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).equals(plain)).toBe(true)
    expect((await get(`${url}/services/`, { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip')
    const none = await get(`${url}/services/`)
    expect(none.headers['content-encoding']).toBeUndefined()
    expect(none.body.equals(plain)).toBe(true)
    const css = await get(`${url}${asset('css')}`, { 'Accept-Encoding': 'br' })
    expect(brotliDecompressSync(css.body).equals(file(asset('css').slice(1)))).toBe(true)
  })

  test('the content editor\'s script, several megabytes, compressed too, the same bytes once decoded', async () => {
    const script = /src="(\/admin\/editor\.[^"]+\.js)"/.exec(file('admin/index.html').toString('utf8'))![1]!
    const plain = file(script.slice(1))
    expect(plain.length).toBeGreaterThan(1024 * 1024) // past the size compressed at a quicker level
    const br = await get(`${url}${script}`, { 'Accept-Encoding': 'br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.body.length).toBeLessThan(plain.length / 3)
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true)
    const gz = await get(`${url}${script}`, { 'Accept-Encoding': 'gzip' })
    expect(gunzipSync(gz.body).equals(plain)).toBe(true)
  })
})

describe('safety', () => {
  /** Each attempt and the status it must get; none may return the secret. */
  const attempts: [string, number][] = [
    ['/../secret.txt', 400],
    ['/../../secret.txt', 400],
    ['/assets/../../secret.txt', 400],
    ['/./../secret.txt', 400],
    ['/%2e%2e/secret.txt', 400],
    ['/%2E%2E/secret.txt', 400],
    ['/.%2e/secret.txt', 400],
    ['/..%2fsecret.txt', 400],
    ['/%2e%2e%2fsecret.txt', 400],
    ['/..%5csecret.txt', 400],
    ['/..\\secret.txt', 400],
    ['/assets\\..\\..\\secret.txt', 400],
    ['/%252e%252e/secret.txt', 404],
    ['/%c0%ae%c0%ae/secret.txt', 400],
    ['/index.html%00', 400],
    ['/secret.txt%00.html', 400],
    ['//../secret.txt', 400],
    ['/leak.txt', 404],
    [`/${'a/'.repeat(600)}secret.txt`, 414],
    [`/${'..%2f'.repeat(400)}`, 414],
  ]
  test.each(attempts)('%s is refused', async (target, status) => {
    const r = await rawGet(server.port, target)
    expect(r.status).toBe(status)
    expect(r.text).not.toContain(SECRET)
  })

  test('a malformed request gets 400 and the server carries on', async () => {
    expect((await raw(server.port, 'NOT A REQUEST\r\n\r\n')).status).toBe(400)
    expect((await raw(server.port, 'GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n')).status).toBe(400)
    expect((await rawGet(server.port, '/%zz')).status).toBe(400)
    expect((await rawGet(server.port, '/%')).status).toBe(400)
    expect((await rawGet(server.port, 'http://127.0.0.1/')).status).toBe(400)
    expect((await get(`${url}/`)).status).toBe(200)
  })

  test('500 concurrent connections are all answered', async () => {
    const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => rawGet(server.port, i % 2 ? '/services/' : `/blog/?n=${i}`).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(500)
    expect((await get(`${url}/`)).status).toBe(200)
  })
})

describe('the command', () => {
  /** Runs `clinic-build serve` and resolves once it says where it serves. */
  function serveProcess(args: string[]) {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => { stdout += c })
    child.stderr.on('data', (c) => { stderr += c })
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    const listening = new Promise<string>((done, fail) => {
      child.stdout.on('data', () => { const m = /at (http:\/\/\S+)\//.exec(stdout); if (m) done(m[1]!) })
      exited.then(() => fail(new Error(`serve exited: ${stderr}`)))
    })
    listening.catch(() => {})
    return { child, listening, exited, output: () => ({ stdout, stderr }) }
  }

  test('binds 127.0.0.1, moves past a taken port, and stops cleanly on Ctrl-C', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await new Promise((ready) => blocker.once('listening', ready))
    const taken = (blocker.address() as { port: number }).port
    const site = copySite()
    const run = serveProcess(['--out', dist, '--root', site, '--port', String(taken)])
    try {
      const served = await run.listening
      const port = Number(new URL(served).port)
      expect(served).toBe(`http://127.0.0.1:${port}`)
      // The shipped deploy.host is Netlify: what it answers otherwise is said at start-up (src/serve/host-differences.ts).
      await expect.poll(() => run.output().stdout, { timeout: 30_000 }).toMatch(/\nWhere deploy\.host answers otherwise: Netlify redirects \/x to \/x\/ with 301 \(here 308\)/)
      // Each port from the taken one up to the one bound is reported (another process may hold the next one too).
      const tried = [...run.output().stderr.matchAll(/Port (\d+) is taken; trying (\d+)\./g)].map((m) => [Number(m[1]), Number(m[2])])
      expect(tried).toEqual(Array.from({ length: port - taken }, (_, i) => [taken + i, taken + i + 1]))
      expect(tried.length).toBeGreaterThan(0)
      expect((await get(`${served}/cn/`)).status).toBe(200)
      // The contact form's local endpoint is mounted before the static files.
      const enquiry = await fetch(`${served}/api/enquiry`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: '{}' })
      expect(enquiry.status).toBe(422)
      expect(await enquiry.json()).toMatchObject({ ok: false })
      expect((await get(`${served}/api/enquiry`)).headers.allow).toBe('POST')
      // Held open, as a browser tab would, while Ctrl-C arrives.
      const open = connect(port, '127.0.0.1')
      await new Promise((ready) => open.once('connect', ready))
      run.child.kill('SIGINT')
      expect(await run.exited).toBe(0)
      expect(run.output().stdout).toContain('Stopped.')
      open.destroy()
    } finally {
      run.child.kill()
      blocker.close()
    }
  })

  test('answers its own names only: another name gets 403 saying how to allow it, and --allowed-host does', async () => {
    const run = serveProcess(['--out', dist, '--root', copySite(), '--port', '0', '--allowed-host', 'laptop.local'])
    try {
      const served = await run.listening
      const port = new URL(served).port
      const rebound = await get(`${served}/`, { Host: `rebind.example:${port}` })
      expect(rebound.status).toBe(403)
      expect(rebound.body.toString()).toMatch(/^HostNotAllowed: .*\n.*, and laptop\.local, .*\nTo open it as rebind\.example, start it again with --allowed-host rebind\.example\.\n$/)
      expect((await get(`${served}/api/enquiry`, { Host: `rebind.example:${port}` })).status).toBe(403)
      for (const host of [`laptop.local:${port}`, `localhost:${port}`, `[::1]:${port}`]) expect((await get(`${served}/`, { Host: host })).status, host).toBe(200)
    } finally {
      run.child.kill()
    }
  })

  test('--allowed-host takes a host name, or the command stops with a usage error', async () => {
    const run = serveProcess(['--out', dist, '--allowed-host', 'http://laptop.local:8080/'])
    expect(await run.exited).toBe(1)
    expect(run.output().stderr).toBe('clinic-build: --allowed-host takes a host name such as laptop.local or .example.test, got "http://laptop.local:8080/".\n')
  })

  test('a folder without a built site is a clear error', async () => {
    const run = serveProcess(['--out', join(dirname(dist), 'nothing-here')])
    expect(await run.exited).toBe(1)
    expect(run.output().stderr).toMatch(/^clinic-build: .*nothing-here holds no built site \(no index\.html\)\. Run `clinic-build --out .*` first\.\n$/)
  })
})

// `check` serves a folder that does not change while it runs, and asks the disk once per path.
describe('a folder served as unchanging', () => {
  test('answers every request as the server that asks the disk each time does', async () => {
    const frozen = await startServer({ dir: dist, port: 0, unchanging: true, compress: false, headerRules: await loadHeaderRules(dist, () => {}) })
    try {
      const paths = ['/', '/cn/contact/', '/contact', '/cn/no-such-page/', '/robots.txt', '/favicon.svg', asset('css'), asset('js'), '/leak.txt', '/_headers', '/robots.txt/']
      for (const path of paths) {
        for (let twice = 0; twice < 2; twice++) { // the second answer comes from what the first learnt
          const [a, b] = await Promise.all([get(`${url}${path}`, { 'Accept-Encoding': 'identity' }), get(`${frozen.url}${path}`)])
          expect([b.status, b.headers['content-type'], b.headers.location, b.headers['x-frame-options'], b.headers['cache-control']], path)
            .toEqual([a.status, a.headers['content-type'], a.headers.location, a.headers['x-frame-options'], a.headers['cache-control']])
          expect(b.body.equals(a.body), path).toBe(true)
        }
      }
      const page = await get(`${frozen.url}/contact/`)
      expect(Number(page.headers['content-length'])).toBe(file('contact/index.html').length)
      expect((await get(`${frozen.url}/contact/`, { 'If-None-Match': String(page.headers.etag) })).status).toBe(304)
      const head = await get(`${frozen.url}/contact/`, {}, 'HEAD')
      expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, page.headers['content-length'], 0])
    } finally {
      await frozen.close()
    }
  })

  // It lists the folder when it starts; a path the listing does not hold is asked of the disk.
  test('refuses a linked folder that leads out of it, and serves a file added after it started', async () => {
    symlinkSync(dirname(dist), join(dist, 'up'))
    const frozen = await startServer({ dir: dist, port: 0, unchanging: true, compress: false })
    try {
      for (const path of ['/up/secret.txt', '/up/', '/up']) {
        const answer = await get(`${frozen.url}${path}`)
        expect(answer.status, path).toBe(404)
        expect(answer.body.toString(), path).not.toContain(SECRET)
      }
      writeFileSync(join(dist, 'added-later.txt'), 'added')
      const added = await get(`${frozen.url}/added-later.txt`)
      expect([added.status, added.body.toString()]).toEqual([200, 'added'])
    } finally {
      await frozen.close()
      rmSync(join(dist, 'up'))
      rmSync(join(dist, 'added-later.txt'), { force: true })
    }
  })
})
