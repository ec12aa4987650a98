// One outbound POST to a partner's webhook URL, guarded against server-side request forgery: only
// http(s), no redirects followed (a 3xx is a failed delivery), a hard timeout, and, unless allowed,
// no private, loopback or link-local address. A URL naming such an address (an IP literal in any
// form the URL parser reads: 127.1, 2130706433, 0x7f000001, [::ffff:127.0.0.1]…) or `localhost`
// is refused when it is set; names are checked again when the connection is made (a custom DNS
// lookup), so a name that resolves, or re-resolves, to an internal address is refused too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP } from 'node:net'

export interface OutboundOptions {
  timeoutMs: number
  allowPrivateNetworks: boolean
  allowHttp: boolean
}

export class OutboundError extends Error {}

// Two lists: Node's BlockList checks an IPv4 address against IPv6 rules too, as its IPv4-mapped
// form, so one list holding ::ffff:0:0/96 refused every IPv4 address (and so every partner on IPv4).
const blockedV4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blockedV4.addSubnet(net, prefix, 'ipv4')
// IPv4-mapped and IPv4-compatible, NAT64 (64:ff9b::/96 reaches an IPv4 address through the gateway)
// and 6to4 addresses embed an IPv4 address: all refused rather than decoded.
const blockedV6 = new BlockList()
for (const [net, prefix] of [
  ['::', 96], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['::ffff:0:0', 96],
  ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['100::', 64],
] as const) blockedV6.addSubnet(net, prefix, 'ipv6')

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  return family === 6 ? blockedV6.check(address, 'ipv6') : blockedV4.check(address, 'ipv4')
}

/** The host of a parsed URL as an address or a name: brackets, trailing dots and case removed. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase()

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says. */
const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

/**
 * A URL partners may register: absolute http(s) (http only where allowed), no credentials in it,
 * and, unless private networks are allowed, no private address literal and no `localhost`.
 */
export function checkWebhookUrl(raw: string, options: Pick<OutboundOptions, 'allowHttp' | 'allowPrivateNetworks'>): string | null {
  if (!URL.canParse(raw)) return 'must be an absolute URL'
  const url = new URL(raw)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) return options.allowHttp ? 'must use http or https' : 'must use https'
  if (url.username || url.password) return 'must not contain credentials'
  const host = hostOf(url)
  if (!options.allowPrivateNetworks && (isLoopbackName(host) || (isIP(host) !== 0 && isPrivateAddress(host)))) {
    return 'must not point to a private or loopback address'
  }
  return null
}

export async function postJson(url: string, body: string, headers: Record<string, string>, options: OutboundOptions): Promise<{ statusCode: number }> {
  const problem = checkWebhookUrl(url, options)
  if (problem) throw new OutboundError(`URL ${problem}`)
  const target = new URL(url)
  const guardedLookup = (hostname: string, lookupOptions: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const list = addresses as LookupAddress[]
      const refused = !options.allowPrivateNetworks && list.some((a) => isPrivateAddress(a.address))
      if (refused) return callback(new OutboundError(`${hostname} resolves to a private or loopback address`), '')
      if ((lookupOptions as { all?: boolean }).all) return callback(null, list)
      return callback(null, list[0]!.address, list[0]!.family)
    })
  }
  // A literal IP skips DNS lookup in Node, and checkWebhookUrl above has refused the private
  // ones: this is the last word before connecting, so it does not rely on that.
  const literal = hostOf(target)
  if (isIP(literal) && !options.allowPrivateNetworks && isPrivateAddress(literal)) {
    throw new OutboundError(`${literal} is a private or loopback address`)
  }
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'commerce-api-webhooks/1', ...headers },
        lookup: guardedLookup as never,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0 }))
        response.on('error', (err) => reject(new OutboundError(err.message)))
      },
    )
    const deadline = setTimeout(() => request.destroy(new OutboundError(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs)
    request.on('timeout', () => request.destroy(new OutboundError(`no answer within ${options.timeoutMs} ms`)))
    request.on('error', (err) => {
      clearTimeout(deadline)
      reject(err instanceof OutboundError ? err : new OutboundError(err.message))
    })
    request.on('close', () => clearTimeout(deadline))
    request.end(body)
  })
}
