/**
 * The host names a local server answers to, decided as Vite decides `server.allowedHosts`: any IP
 * address, `localhost` and its subdomains, the name the server was bound to (`--host`), and the
 * names given with `--allowed-host` (one starting with a dot also allows its subdomains). A page
 * on another site whose own name was made to resolve to 127.0.0.1 (DNS rebinding) still sends
 * that name in `Host`, so it is refused; it cannot make a browser send an IP address or
 * `localhost` for its own origin. The port is read but not compared: an SSH tunnel or a
 * container's port mapping may forward another port to this one.
 *
 *   hostNames('127.0.0.1').allows('localhost:4321') -> true
 *   hostNames('127.0.0.1').allows('rebind.example:4321') -> false
 *   hostNames('0.0.0.0', ['laptop.local']).allows('laptop.local:8080') -> true
 */
import { isIP } from 'node:net'

export interface HostNames {
  allows: (hostHeader: string | undefined) => boolean
  /** The text of the 403 answer: which names are answered, and how to allow this one. */
  refusal: (hostHeader: string | undefined) => string
}

/** A DNS name: letters, digits and hyphens between dots; a leading dot means "and its subdomains". */
const NAME = /^\.?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/** A name given with --allowed-host, lower-cased, or undefined when it is not a host name. */
export function allowedHostName(value: string): string | undefined {
  const name = value.trim().toLowerCase().replace(/\.$/, '')
  return NAME.test(name) && name.length <= 253 ? name : undefined
}

export function hostNames(bound: string, allowed: string[] = []): HostNames {
  // A server bound to a name (`--host laptop.local`) answers to that name; to an address, any address.
  const names = [...new Set([...(isIP(bound) ? [] : [bound.toLowerCase()]), ...allowed])].filter((n) => n !== 'localhost')
  const allows = (hostHeader: string | undefined) => {
    const name = hostnameOf(hostHeader)
    if (name === undefined) return false
    if (isIP(name) || (name.startsWith('[') && isIP(name.slice(1, -1)) === 6)) return true
    if (name === 'localhost' || name.endsWith('.localhost')) return true
    return names.some((n) => n === name || (n.startsWith('.') && (name === n.slice(1) || name.endsWith(n))))
  }
  const refusal = (hostHeader: string | undefined) => {
    const name = hostnameOf(hostHeader)
    const asked = name === undefined ? (hostHeader === undefined ? 'a request that names no host' : 'a Host header that is no host name') : `the name ${name}`
    const others = names.length ? `, and ${names.join(', ')}` : ''
    const hint = name !== undefined && allowedHostName(name) ? `To open it as ${name}, start it again with --allowed-host ${name}.` : 'Open it at the address it printed when it started.'
    return `HostNotAllowed: this server does not answer ${asked}.\n`
      + `It answers localhost, any IP address (such as 127.0.0.1 or [::1])${others}, so that pages of other sites cannot reach it under a name of theirs.\n`
      + `${hint}\n`
  }
  return { allows, refusal }
}

/** The host name of a Host header (`name`, `name:port`, `[v6]:port`), lower-cased; undefined when malformed. */
function hostnameOf(hostHeader: string | undefined): string | undefined {
  const match = /^(?:(\[[0-9a-f:.]+\])|([a-z0-9._-]+))(?::(\d{1,5}))?$/i.exec(hostHeader?.trim() ?? '')
  if (!match || Number(match[3] ?? 0) > 65535) return undefined
  return (match[1] ?? match[2]!).toLowerCase().replace(/(?<=.)\.$/, '')
}
