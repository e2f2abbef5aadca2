/**
 * `clinic-build dev` as a real process on 127.0.0.1, asked over real HTTP as a page of another
 * site could ask it: under another name (DNS rebinding), with no Origin or another one, and for
 * paths outside the editor's files (the site's code, its configuration, links leading out,
 * traversal however written). Each is refused with its catalogued name, and the site folder is
 * byte for byte as it was. The editor's own requests still read and write its files.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devProcess } from '../../support/dev-process.ts'
import { bytesAndTime, copySite, filesIn } from '../../support/helpers.ts'
import { get } from '../../support/http.ts'

const BACKEND = '/__clinic/cms/api/v1'
const site = copySite()
const dev = devProcess(site)
let url = ''
let host = ''
let before: Map<string, string>

/** Every file of the site folder but the dev server's own (.clinic/), with its bytes and when it was written. */
const snapshot = () => new Map([...filesIn(site, bytesAndTime)].filter(([path]) => !path.startsWith('.clinic/')))

/** A POST with exactly these headers (Host included) and this body. */
function post(body: unknown, headers: Record<string, string>): Promise<{ status: number; json: { error?: string } & Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const req = request(`${url}${BACKEND}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Host: host, ...headers }, agent: false }, (res) => {
      let answer = ''
      res.setEncoding('utf8').on('data', (c: string) => { answer += c }).on('end', () => {
        try { done({ status: res.statusCode!, json: JSON.parse(answer) }) } catch { done({ status: res.statusCode!, json: { error: answer } }) }
      })
    })
    req.on('error', fail)
    req.end(text)
  })
}
/** As the editor's own page asks. */
const editor = (body: unknown) => post(body, { Origin: url })
const options = { commitMessage: 'x', useWorkflow: false, status: 'draft' }
const persist = (path: string) => ({ action: 'persistEntry', params: { branch: 'main', dataFiles: [{ slug: 'x', path, raw: '---\ntitle: X\n---\n' }], assets: [], options } })

beforeAll(async () => {
  // What a site folder holds besides its content, and links from content/ and static/images/ out of them.
  writeFileSync(join(site, 'package.json'), '{"scripts":{"postinstall":"echo original"}}\n')
  for (const folder of ['src', 'templates', '.ci']) mkdirSync(join(site, folder))
  writeFileSync(join(site, 'src/index.ts'), 'export {}\n')
  writeFileSync(join(site, 'templates/page.tsx'), 'export {}\n')
  writeFileSync(join(site, '.ci/run'), 'echo original\n')
  writeFileSync(join(site, 'notes.md'), '# Notes outside content/\n')
  symlinkSync('../../package.json', join(site, 'content/en/linked.md'))
  symlinkSync('../../notes.md', join(site, 'content/en/linked-notes.md'))
  symlinkSync('../../src', join(site, 'content/en/linked-src'))
  symlinkSync('../../package.json', join(site, 'static/images/linked.png'))
  before = snapshot()

  url = await dev.start()
  host = new URL(url).host
}, 180_000)

afterAll(async () => {
  await dev.stop()
  rmSync(site, { recursive: true, force: true })
})

describe('the dev server answers its own names only', () => {
  test('a page under another name that resolves to 127.0.0.1 gets 403, saying which names are answered and how to add one', async () => {
    const port = new URL(url).port
    for (const path of ['/', '/__clinic/status', '/admin/']) {
      const answer = await get(`${url}${path}`, { Host: `rebind.example:${port}` })
      expect(answer.status, path).toBe(403)
      expect(answer.body.toString()).toMatch(/^HostNotAllowed: this server does not answer the name rebind\.example\.\n.*localhost, any IP address.*\nTo open it as rebind\.example, start it again with --allowed-host rebind\.example\.\n$/)
    }
    // The status of the dev server's build answers whatever the build made of the links below.
    expect((await get(`${url}/__clinic/status`, {})).status).toBe(200) // node:http names 127.0.0.1:port
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'app.localhost', '192.168.1.20', 'LOCALHOST']) {
      expect((await get(`${url}/__clinic/status`, { Host: `${name}:${port}` })).status, name).toBe(200)
    }
  })

  test('the backend asked under a rebound name, with a matching Origin, writes and reads nothing', async () => {
    const answer = await post(persist('content/en/rebound.md'), { Host: `rebind.example:${new URL(url).port}`, Origin: `http://rebind.example:${new URL(url).port}` })
    expect(answer.status).toBe(403)
    expect(answer.json.error).toMatch(/^HostNotAllowed:/)
    const read = await post({ action: 'getEntry', params: { branch: 'main', path: 'content/en/contact.md' } }, { Host: 'rebind.example', Origin: 'http://rebind.example' })
    expect(read.status).toBe(403)
    expect(snapshot()).toEqual(before)
  })
})

describe('the local backend answers the dev server\'s own pages only', () => {
  test('a request with no Origin is refused', async () => {
    const answer = await post(persist('content/en/no-origin.md'), {})
    expect(answer.status).toBe(403)
    expect(answer.json.error).toBe(`ForeignOrigin: the local backend answers the pages of ${url} only, and this request names no page (no Origin header).`)
    expect((await post({ action: 'info' }, {})).status).toBe(403)
    expect(snapshot()).toEqual(before)
  })

  test('a request from another origin is refused: another site, another port of this computer, https', async () => {
    for (const origin of ['https://elsewhere.example', 'http://127.0.0.1:1', `https://${host}`, 'null']) {
      const answer = await post(persist('content/en/foreign.md'), { Origin: origin })
      expect(answer.status, origin).toBe(403)
      expect(answer.json.error).toBe(`ForeignOrigin: the local backend answers the pages of ${url} only, not ${origin}.`)
    }
    expect(snapshot()).toEqual(before)
  })
})

describe('the local backend touches the Markdown under content/ and the media folder only', () => {
  const outside = [
    'package.json', 'src/index.ts', 'src/new.md', 'templates/page.tsx', '.ci/run', 'notes.md', 'content/site.yaml', 'static/favicon.svg',
    // links under content/ that lead out: to a file, to a Markdown file, through a folder
    'content/en/linked.md', 'content/en/linked-notes.md', 'content/en/linked-src/index.md', 'content/en/linked-src/new.md',
    // traversal, however written
    'content/../package.json', 'content/en/../../src/new.md', 'content/%2e%2e/package.json', 'content/%2E%2E/%2e%2e/src/new.md', 'content%2f..%2fsrc%2fnew.md',
    'content\\..\\src\\new.md', './content/en/contact.md', 'content//en/new.md', 'content/en/.hidden.md', 'content/en/new.md\u0000.png',
    join(site, 'src/new.md'), join(site, 'content/en/new.md'), '/etc/passwd', 'C:/x/content/en/new.md',
  ]

  test.each(outside)('%s: neither read, written nor deleted', async (path) => {
    const requests = [
      persist(path),
      { action: 'getEntry', params: { branch: 'main', path } },
      { action: 'entriesByFiles', params: { branch: 'main', files: [{ path: 'content/en/contact.md' }, { path }] } },
      { action: 'getMediaFile', params: { branch: 'main', path } },
      { action: 'persistMedia', params: { branch: 'main', asset: { path, content: 'AAAA', encoding: 'base64' }, options: { commitMessage: 'x' } } },
      { action: 'persistEntry', params: { ...persist('content/en/new-page.md').params, assets: [{ path, content: 'AAAA', encoding: 'base64' }] } },
      { action: 'persistEntry', params: { ...persist('content/en/privacy.md').params, dataFiles: [{ slug: 'x', path: 'content/en/privacy.md', newPath: path, raw: '---\ntitle: X\n---\n' }] } },
      { action: 'persistEntry', params: { branch: 'main', entry: { slug: 'x', path, raw: 'x' }, assets: [], options } },
      { action: 'deleteFile', params: { branch: 'main', path, options: { commitMessage: 'x' } } },
      { action: 'deleteFiles', params: { branch: 'main', paths: ['content/en/privacy.md', path], options: { commitMessage: 'x' } } },
    ]
    for (const body of requests) {
      const answer = await editor(body)
      expect(answer.status, `${body.action} ${path}`).toBe(403)
      expect(answer.json.error).toMatch(/^EditorFileRefused: /)
    }
    expect(snapshot()).toEqual(before)
  })

  test('traversal written with JSON escapes is read as the path it is, and refused', async () => {
    const answer = await editor(String.raw`{"action":"getEntry","params":{"branch":"main","path":"content/\u002e\u002e/package.json"}}`)
    expect(answer.status).toBe(403)
    expect(answer.json.error).toMatch(/^EditorFileRefused: "content\/\.\.\/package\.json" has an empty, "\." or "\.\." part/)
  })

  test('listings of other folders are refused, and the links leading out are left out of content/\'s', async () => {
    for (const folder of ['src', '.', '', 'content/en/linked-src', 'static']) {
      expect((await editor({ action: 'entriesByFolder', params: { branch: 'main', folder, extension: 'md', depth: 1 } })).status, folder).not.toBe(200)
    }
    for (const mediaFolder of ['src', '.', 'content', 'static']) {
      expect((await editor({ action: 'getMedia', params: { branch: 'main', mediaFolder } })).status, mediaFolder).toBe(403)
    }
    const listed = await editor({ action: 'entriesByFolder', params: { branch: 'main', folder: 'content/en', extension: 'md', depth: 1 } })
    const paths = (listed.json as unknown as { file: { path: string }; data: string }[]).map((e) => e.file.path)
    expect(paths).toContain('content/en/contact.md')
    expect(paths.filter((p) => p.includes('linked'))).toEqual([])
    expect(dev.output()).toContain('warning: content/en/linked-notes.md: left out of the content editor. "content/en/linked-notes.md" is a link that leads out of content/: the local backend does not follow it.\n')
    const media = await editor({ action: 'getMedia', params: { branch: 'main', mediaFolder: 'static/images' } })
    expect((media.json as unknown as { path: string }[]).map((m) => m.path)).toEqual(['static/images/arches.jpg'])
    expect(snapshot()).toEqual(before)
  })

  test('actions the editor does not use are refused', async () => {
    for (const action of ['publishUnpublishedEntry', 'deleteUnpublishedEntry', 'unpublishedEntryMediaFile', 'exec', '__proto__']) {
      const answer = await editor({ action, params: { branch: 'main', collection: 'x', slug: 'x', path: 'content/en/contact.md', id: 'x' } })
      expect(answer.status, action).toBe(422)
    }
    expect((await editor({ params: {} })).status).toBe(400)
    expect((await editor('not json')).status).toBe(400)
  })

  test('the editor\'s own requests read and write its files', async () => {
    expect((await editor({ action: 'info' })).json).toMatchObject({ type: 'local_fs' })
    const contact = await editor({ action: 'getEntry', params: { branch: 'main', path: 'content/en/contact.md' } })
    expect(contact.json.data).toBe(readFileSync(join(site, 'content/en/contact.md'), 'utf8'))
    const saved = await editor(persist('content/en/blog/new-note.md'))
    expect(saved.status).toBe(200)
    expect(readFileSync(join(site, 'content/en/blog/new-note.md'), 'utf8')).toBe('---\ntitle: X\n---\n')
    const uploaded = await editor({ action: 'persistMedia', params: { branch: 'main', asset: { path: 'static/images/dot.png', content: 'iVBORw0KGgo=', encoding: 'base64' }, options: { commitMessage: 'x' } } })
    expect(uploaded.status).toBe(200)
    expect(readFileSync(join(site, 'static/images/dot.png')).toString('base64')).toBe('iVBORw0KGgo=')
    const media = await editor({ action: 'getMedia', params: { branch: 'main', mediaFolder: 'static/images' } })
    expect((media.json as unknown as { path: string }[]).map((m) => m.path).sort()).toEqual(['static/images/arches.jpg', 'static/images/dot.png'])
    // A renamed page moves its own file only, not every file beside it (decap-server's default).
    const renamed = await editor({ action: 'persistEntry', params: { ...persist('').params, dataFiles: [{ slug: 'x', path: 'content/en/blog/new-note.md', newPath: 'content/en/notes/new-note.md', raw: '---\ntitle: Y\n---\n' }] } })
    expect(renamed.status).toBe(200)
    await expect.poll(() => existsSync(join(site, 'content/en/notes/new-note.md'))).toBe(true)
    expect(readFileSync(join(site, 'content/en/notes/new-note.md'), 'utf8')).toBe('---\ntitle: Y\n---\n')
    expect((await editor({ action: 'deleteFiles', params: { branch: 'main', paths: ['content/en/notes/new-note.md', 'static/images/dot.png'], options: { commitMessage: 'x' } } })).status).toBe(200)
    expect(existsSync(join(site, 'content/en/notes/new-note.md'))).toBe(false)
    rmSync(join(site, 'content/en/notes'), { recursive: true })
    expect(snapshot()).toEqual(before)
  })
})
