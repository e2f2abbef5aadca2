/** Plain HTTP for server tests: exact bytes in and out, no decompression, no URL normalising. */
import { request } from 'node:http'
import { once } from 'node:events'
import { connect, createServer, type AddressInfo } from 'node:net'

export interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A GET (or other method) through node:http: the body arrives as sent, compressed or not. */
export function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', fail)
    req.end()
  })
}

/** Sends `head` as the raw start of a request (request line and headers) and returns the reply. */
export function raw(port: number, head: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head))
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', fail)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text })
    })
  })
}

/** A raw GET of `target` exactly as written, `..` and backslashes included. */
export const rawGet = (port: number, target: string) => raw(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((closed) => server.close(closed))
  return port
}
