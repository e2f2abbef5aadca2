/**
 * scripts/sync-key-value-store.sh against a stand-in `aws` on PATH that keeps a store as the
 * KeyValueStore API documents it: list-keys gives every pair, describe-key-value-store the ETag,
 * update-keys applies at most 50 puts or deletes at once, all or nothing, and only when If-Match
 * names the current ETag, answering the new one.
 */
import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { projectRoot } from '../support/helpers.ts'

const FAKE_AWS = `#!/usr/bin/env node
const fs = require('node:fs')
const [service, operation, ...rest] = process.argv.slice(2)
const arg = (name) => { const i = rest.indexOf('--' + name); return i === -1 ? undefined : rest[i + 1] }
const path = process.env.FAKE_KVS_STATE
const state = JSON.parse(fs.readFileSync(path, 'utf8'))
const fail = (message) => { process.stderr.write(message + '\\n'); process.exit(254) }
if (service !== 'cloudfront-keyvaluestore' || arg('kvs-arn') !== state.arn) fail('unknown store')
const answer = (body) => {
  const out = arg('query') === 'ETag' ? body.ETag : body
  process.stdout.write(arg('output') === 'text' ? String(out) + '\\n' : JSON.stringify(out))
}
if (operation === 'list-keys') answer({ Items: Object.entries(state.items).map(([Key, Value]) => ({ Key, Value })) })
else if (operation === 'describe-key-value-store') answer({ ETag: state.etag, ItemCount: Object.keys(state.items).length })
else if (operation === 'update-keys') {
  if (arg('if-match') !== state.etag) fail('An error occurred (ConflictException): the ETag does not match')
  const puts = JSON.parse(arg('puts') ?? '[]'), deletes = JSON.parse(arg('deletes') ?? '[]')
  if (puts.length + deletes.length > 50) fail('An error occurred (ValidationException): more than 50 keys')
  for (const { Key, Value } of puts) state.items[Key] = Value
  for (const { Key } of deletes) delete state.items[Key]
  state.etag = 'E' + (Number(state.etag.slice(1)) + 1)
  state.calls += 1
  fs.writeFileSync(path, JSON.stringify(state))
  answer({ ETag: state.etag, ItemCount: Object.keys(state.items).length })
} else fail('unknown operation ' + operation)
`

test('the store ends as the import file says, in calls of 50 keys; a second run changes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-kvs-'))
  writeFileSync(join(dir, 'aws'), FAKE_AWS)
  chmodSync(join(dir, 'aws'), 0o755)
  const arn = 'arn:aws:cloudfront::123456789012:key-value-store/8aa76c93-3198-462c-aaf6-example'
  const before = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`/old-${i}/`, `/old-${i}/index.html`]))
  before['/contact/'] = '/contact/old.html'
  before['/'] = '/index.html'
  writeFileSync(join(dir, 'state.json'), JSON.stringify({ arn, etag: 'E1', items: before, calls: 0 }))
  const data = [{ key: '/', value: '/index.html' }, { key: '/contact/', value: '/contact/index.html' }, { key: '/cn/*', value: '/cn/404.html' },
    ...Array.from({ length: 120 }, (_, i) => ({ key: `/blog/post-${i}/`, value: `/blog/post-${i}/index.html` }))]
  writeFileSync(join(dir, 'store.json'), JSON.stringify({ data }))
  const run = () => promisify(execFile)('bash', [join(projectRoot, 'scripts/sync-key-value-store.sh'), arn, join(dir, 'store.json')],
    { env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, FAKE_KVS_STATE: join(dir, 'state.json') } })
  const state = () => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { items: Record<string, string>; calls: number }

  const first = await run()
  expect(state().items).toEqual(Object.fromEntries(data.map((d) => [d.key, d.value])))
  // 122 puts (the home page is unchanged) in 3 calls, then 80 deletes in 2.
  expect(state().calls).toBe(5)
  expect(first.stdout).toBe('key value store: 5 update-keys calls\n')
  expect((await run()).stdout).toBe('key value store: 0 update-keys calls\n')
  expect(state().calls).toBe(5)
})
