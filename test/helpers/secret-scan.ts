// Reliability row SE-11, "secrets in logs": the patterns a captured log line must never match, and
// the scan `npm test` runs over every line the suite's apps and server processes logged
// (test/helpers/log-capture.ts writes them). The formats are the service's own: API keys `ck_`,
// partner secrets `psk_`, refresh tokens `rt_`, webhook secrets `whsec_` (all `newSecret`-style
// base64url), access and admin tokens (JWT, `eyJ…`), HMAC signatures (`v1=<hex>`, the provider
// headers, the local upload URL's `signature=`, S3's `X-Amz-Signature=`), card numbers, bearer
// credentials, and credential-named fields that escaped redaction.
import { createReadStream, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export interface SecretPattern {
  name: string
  regex: RegExp
  /** Extra check on a regex match (the Luhn sum of a card-like number); the match counts when true. */
  accept?: (match: string) => boolean
}

/** Passes the Luhn check (every card number does; a random digit string does one time in ten). */
export function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

const B64 = '[A-Za-z0-9_-]'
// Not inside a longer word: `rt_` must not match in `part_…` or `start_…`.
const START = '(?<![A-Za-z0-9])'
const CREDENTIAL_FIELDS = [
  'accountNumber', 'account_number',
  'password', 'secret', 'apiKey', 'api_key', 'accessToken', 'refreshToken', 'token', 'keySecret', 'webhookSecret',
  'secretAccessKey', 'authorization', 'x-api-key', 'x-partner-secret', 'cookie', 'set-cookie',
]
const SIGNATURE_HEADERS = ['x-razorpay-signature', 'x-sandbox-signature', 'x-commerce-signature']

export const SECRET_PATTERNS: SecretPattern[] = [
  { name: 'API key (ck_)', regex: new RegExp(`${START}ck_${B64}{20,}`, 'g') },
  { name: 'partner secret (psk_)', regex: new RegExp(`${START}psk_${B64}{8,}`, 'g') },
  { name: 'refresh token (rt_)', regex: new RegExp(`${START}rt_${B64}{20,}`, 'g') },
  { name: 'webhook secret (whsec_)', regex: new RegExp(`${START}whsec_${B64}{8,}`, 'g') },
  { name: 'JWT (access/admin token)', regex: new RegExp(`eyJ${B64}{8,}\\.eyJ${B64}{8,}\\.${B64}{16,}`, 'g') },
  { name: 'Authorization: Bearer value', regex: /\bbearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/gi },
  { name: 'HMAC signature (v1=)', regex: /\bv1=[0-9a-f]{32,}/gi },
  { name: 'signature header value', regex: new RegExp(`(?:${SIGNATURE_HEADERS.join('|')})\\\\?"?\\s*[:=]\\s*\\\\?"?(?!\\[redacted\\])[A-Za-z0-9=,_-]{16,}`, 'gi') },
  { name: 'signed URL signature', regex: /[?&](?:signature|X-Amz-Signature)=(?!\[redacted\])[0-9A-Za-z%_-]{16,}/gi },
  { name: 'AWS access key id', regex: /(?<![A-Z0-9])AKIA[0-9A-Z]{16}(?![A-Z0-9])/g },
  {
    name: 'credential field not redacted',
    // A JSON field named like a credential with a value other than the censor: redaction missed it.
    regex: new RegExp(`"(?:${CREDENTIAL_FIELDS.join('|')})"\\s*:\\s*"(?!\\[redacted\\]")[^"]{4,}"`, 'gi'),
  },
  {
    name: 'card-like number (Luhn)',
    // 13-19 digits, bare or in groups of four (Amex 4-6-5), starting like a card network (2-6, 8:
    // Visa, Mastercard, Amex, RuPay, Discover, JCB, Diners): epoch milliseconds (`"time":17…`) and
    // 10-digit mobiles are not. Not inside a word, so digits inside ids and hex do not count.
    regex: /(?<![0-9A-Za-z.])(?:[2-68][0-9]{12,18}|[2-68][0-9]{3}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{1,7}|3[47][0-9]{2}([ -])[0-9]{6}\2[0-9]{5})(?![0-9A-Za-z])/g,
    accept: (match) => luhn(match.replace(/[ -]/g, '')),
  },
]

export interface SecretMatch {
  pattern: string
  /** The matched text, masked: its first 4 characters and its length. */
  masked: string
}

function mask(secret: string): string {
  return `${secret.slice(0, 4)}…[masked ${secret.length} chars]`
}

/** Every secret in one line: the patterns above, then these exact values (the run's own secrets). */
export function findSecrets(line: string, knownSecrets: readonly string[] = []): SecretMatch[] {
  const found: SecretMatch[] = []
  for (const { name, regex, accept } of SECRET_PATTERNS) {
    for (const match of line.matchAll(regex)) {
      if (!accept || accept(match[0])) found.push({ pattern: name, masked: mask(match[0]) })
    }
  }
  for (const secret of knownSecrets) {
    if (secret.length >= 8 && line.includes(secret)) found.push({ pattern: 'known secret of this run', masked: mask(secret) })
  }
  return found
}

/** The line as it may be printed: each secret in it masked, cut to `width` characters around the first. */
export function maskedLine(line: string, knownSecrets: readonly string[] = [], width = 240): string {
  let out = line
  for (const { regex, accept } of SECRET_PATTERNS) out = out.replace(regex, (m) => (!accept || accept(m) ? mask(m) : m))
  for (const secret of knownSecrets) if (secret.length >= 8) out = out.split(secret).join(mask(secret))
  if (out.length <= width) return out
  const start = Math.max(0, Math.min(out.indexOf('…[masked') - Math.floor(width / 2), out.length - width))
  return `${start > 0 ? '…' : ''}${out.slice(start, start + width)}${start + width < out.length ? '…' : ''}`
}

export interface LogScanFinding {
  file: string
  line: number
  pattern: string
  text: string
}

export interface LogScanResult {
  files: number
  lines: number
  bytes: number
  findings: LogScanFinding[]
}

/** Scans every file under `dir` line by line. */
export async function scanLogDirectory(dir: string, knownSecrets: readonly string[] = []): Promise<LogScanResult> {
  const result: LogScanResult = { files: 0, lines: 0, bytes: 0, findings: [] }
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name)
    if (!statSync(file).isFile()) continue
    result.files++
    result.bytes += statSync(file).size
    let number = 0
    for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
      number++
      if (line.length === 0) continue
      result.lines++
      // One finding per line and pattern (an error's message and stack repeat the same value).
      for (const pattern of new Set(findSecrets(line, knownSecrets).map((m) => m.pattern))) {
        result.findings.push({ file: name, line: number, pattern, text: maskedLine(line, knownSecrets) })
      }
    }
  }
  return result
}
