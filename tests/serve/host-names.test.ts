/**
 * The host names a local server answers to (src/serve/host-names.ts), decided from the Host
 * header alone: what a browser sends for an IP address, localhost, a name the server was started
 * with, and for a page of another site whose name was made to resolve to this computer.
 */
import { describe, expect, test } from 'vitest'
import { allowedHostName, hostNames } from '../../src/serve/host-names.ts'

describe('a server bound to 127.0.0.1', () => {
  const names = hostNames('127.0.0.1')
  test.each(['127.0.0.1:4321', '127.0.0.1', 'localhost:4321', 'LOCALHOST:4321', 'localhost.', 'app.localhost:4321', '[::1]:4321', '[::1]', '10.0.0.7:80', '[fe80::1]:8080'])(
    'answers %s', (host) => expect(names.allows(host)).toBe(true))
  test.each(['rebind.example:4321', 'rebind.example', '127.0.0.1.nip.io:4321', 'localhost.example', 'notlocalhost', '[::1', '[rebind.example]:80', 'localhost:99999', 'localhost:', 'a b', '', undefined])(
    'refuses %s', (host) => expect(names.allows(host)).toBe(false))

  test('the refusal names the asked name, the names answered, and the option that adds one', () => {
    expect(names.refusal('Rebind.Example:4321')).toBe('HostNotAllowed: this server does not answer the name rebind.example.\n'
      + 'It answers localhost, any IP address (such as 127.0.0.1 or [::1]), so that pages of other sites cannot reach it under a name of theirs.\n'
      + 'To open it as rebind.example, start it again with --allowed-host rebind.example.\n')
    expect(names.refusal(undefined)).toMatch(/^HostNotAllowed: this server does not answer a request that names no host\.\n.*\nOpen it at the address it printed when it started\.\n$/)
    expect(names.refusal('<script>')).toMatch(/does not answer a Host header that is no host name\./)
  })
})

describe('a server on the local network (--host 0.0.0.0) or under a name', () => {
  test('answers any IP address and the names given, a leading dot for subdomains too', () => {
    const names = hostNames('0.0.0.0', ['laptop.local', '.tunnel.example'])
    for (const host of ['192.168.1.20:8080', 'laptop.local:8080', 'LAPTOP.LOCAL', 'tunnel.example', 'abc.tunnel.example:443', 'localhost:8080']) expect(names.allows(host), host).toBe(true)
    for (const host of ['other.local:8080', 'laptop.local.rebind.example', 'xtunnel.example', 'tunnel.example.rebind.example']) expect(names.allows(host), host).toBe(false)
    expect(names.refusal('other.local')).toContain('any IP address (such as 127.0.0.1 or [::1]), and laptop.local, .tunnel.example, so')
  })

  test('a name given with --host is answered without --allowed-host', () => {
    expect(hostNames('laptop.local').allows('laptop.local:4321')).toBe(true)
    expect(hostNames('laptop.local').allows('other.local:4321')).toBe(false)
  })

  test('--allowed-host takes host names only', () => {
    expect(allowedHostName('Laptop.Local.')).toBe('laptop.local')
    expect(allowedHostName('.tunnel.example')).toBe('.tunnel.example')
    for (const bad of ['', '.', 'a..b', 'http://laptop.local', 'laptop.local:8080', '*', 'a b', '-a.example']) expect(allowedHostName(bad), bad).toBeUndefined()
  })
})
