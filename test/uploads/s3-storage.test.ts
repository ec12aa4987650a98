import assert from 'node:assert/strict'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { S3Config } from '../../src/config.ts'
import { createS3Storage, presignUrl, signHeaders } from '../../src/modules/uploads/s3-storage.ts'

// AWS's published example credentials and request (S3 API Reference, "Authenticating Requests").
const AWS_EXAMPLE = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' }
const AWS_EXAMPLE_DATE = new Date('2013-05-24T00:00:00Z')

const SECRET = 'test-secret-DO-NOT-LEAK/abc+def'
const config = (overrides: Partial<S3Config> = {}): S3Config => ({
  bucket: 'my-bucket',
  region: 'ap-south-1',
  endpoint: null,
  accessKeyId: 'AKIDTEST',
  secretAccessKey: SECRET,
  publicBaseUrl: null,
  forcePathStyle: false,
  ...overrides,
})

const NOW = new Date('2024-01-02T03:04:05.678Z')
const target = (overrides: Partial<{ objectName: string; contentType: string; sizeBytes: number; expiresAt: Date }> = {}) => ({
  objectName: 'evidence/u1/photo.jpg',
  contentType: 'image/jpeg',
  sizeBytes: 12_345,
  expiresAt: new Date(NOW.getTime() + 15 * 60_000),
  ...overrides,
})

describe('AWS SigV4 published examples', () => {
  test('when the GET presigned-URL example is signed, then the URL and signature are exactly the published ones', () => {
    const url = presignUrl(
      { method: 'GET', protocol: 'https:', host: 'examplebucket.s3.amazonaws.com', path: '/test.txt' },
      AWS_EXAMPLE,
      AWS_EXAMPLE_DATE,
      86_400,
    )
    assert.equal(
      url,
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    )
  })

  test('when the header-signed GET Object example (Range bytes=0-9) is signed, then the Authorization is the published one', () => {
    const headers = signHeaders(
      { method: 'GET', protocol: 'https:', host: 'examplebucket.s3.amazonaws.com', path: '/test.txt', headers: { Range: 'bytes=0-9' } },
      AWS_EXAMPLE,
      AWS_EXAMPLE_DATE,
    )
    assert.equal(headers['x-amz-date'], '20130524T000000Z')
    assert.equal(headers['x-amz-content-sha256'], 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    assert.equal(
      headers.authorization,
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })
})

describe('signUpload', () => {
  const storage = createS3Storage(config(), { now: () => NOW })

  test('when an upload is signed, then it is a presigned PUT binding host, content type and length, valid until expiresAt', async () => {
    const signed = await storage.signUpload(target())
    assert.deepEqual(signed.headers, { 'Content-Type': 'image/jpeg', 'Content-Length': '12345' })
    const url = new URL(signed.uploadUrl)
    assert.equal(`${url.origin}${url.pathname}`, 'https://my-bucket.s3.ap-south-1.amazonaws.com/evidence/u1/photo.jpg')
    const q = url.searchParams
    assert.equal(q.get('X-Amz-Algorithm'), 'AWS4-HMAC-SHA256')
    assert.equal(q.get('X-Amz-Credential'), 'AKIDTEST/20240102/ap-south-1/s3/aws4_request')
    assert.ok(signed.uploadUrl.includes('X-Amz-Credential=AKIDTEST%2F20240102%2Fap-south-1%2Fs3%2Faws4_request'))
    assert.equal(q.get('X-Amz-Date'), '20240102T030405Z')
    assert.equal(q.get('X-Amz-Expires'), '900')
    assert.equal(q.get('X-Amz-SignedHeaders'), 'content-length;content-type;host')
    assert.match(q.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/)
    assert.ok(!signed.uploadUrl.includes(SECRET) && !signed.uploadUrl.includes(encodeURIComponent(SECRET)))
  })

  test('when the content type or the size differs, then the signature differs', async () => {
    const sig = async (t: ReturnType<typeof target>) => new URL((await storage.signUpload(t)).uploadUrl).searchParams.get('X-Amz-Signature')
    const base = await sig(target())
    assert.equal(await sig(target()), base)
    assert.notEqual(await sig(target({ contentType: 'image/png' })), base)
    assert.notEqual(await sig(target({ sizeBytes: 12_346 })), base)
  })

  test('when expiresAt is not 1 s to 7 days away, then signing refuses', async () => {
    await assert.rejects(storage.signUpload(target({ expiresAt: NOW })), RangeError)
    await assert.rejects(storage.signUpload(target({ expiresAt: new Date(NOW.getTime() + 8 * 86_400_000) })), RangeError)
    const week = await storage.signUpload(target({ expiresAt: new Date(NOW.getTime() + 7 * 86_400_000) }))
    assert.equal(new URL(week.uploadUrl).searchParams.get('X-Amz-Expires'), '604800')
  })
})

describe('object and public URLs', () => {
  const name = "evidence/u1/a b+c(1)'.jpg"
  const encoded = 'evidence/u1/a%20b%2Bc%281%29%27.jpg'

  test('when no endpoint is set, then the URL is virtual-hosted on AWS with the key encoded per segment', () => {
    assert.equal(createS3Storage(config()).publicUrl(name), `https://my-bucket.s3.ap-south-1.amazonaws.com/${encoded}`)
  })

  test('when a custom endpoint is set, then forcePathStyle puts the bucket in the path, otherwise in the host', async () => {
    const endpoint = 'https://minio.example.com:9000'
    const pathStyle = createS3Storage(config({ endpoint, forcePathStyle: true }), { now: () => NOW })
    const hosted = createS3Storage(config({ endpoint, forcePathStyle: false }), { now: () => NOW })
    assert.equal(pathStyle.publicUrl(name), `https://minio.example.com:9000/my-bucket/${encoded}`)
    assert.equal(hosted.publicUrl(name), `https://my-bucket.minio.example.com:9000/${encoded}`)
    assert.ok((await pathStyle.signUpload(target({ objectName: name }))).uploadUrl.startsWith(`https://minio.example.com:9000/my-bucket/${encoded}?`))
    assert.ok((await hosted.signUpload(target({ objectName: name }))).uploadUrl.startsWith(`https://my-bucket.minio.example.com:9000/${encoded}?`))
    assert.equal(createS3Storage(config({ endpoint: 'http://127.0.0.1:9000/', forcePathStyle: true })).publicUrl('a/b.png'), 'http://127.0.0.1:9000/my-bucket/a/b.png')
    // The origin uploads go to (the console's CSP lets the browser PUT there): the upload URL's.
    assert.equal(pathStyle.uploadOrigin, 'https://minio.example.com:9000')
    assert.equal(hosted.uploadOrigin, 'https://my-bucket.minio.example.com:9000')
    assert.equal(new URL((await hosted.signUpload(target({ objectName: name }))).uploadUrl).origin, hosted.uploadOrigin)
  })

  test('when publicBaseUrl is set, then public URLs use it; the upload URL still goes to the bucket', async () => {
    const storage = createS3Storage(config({ publicBaseUrl: 'https://cdn.example.com/files' }), { now: () => NOW })
    assert.equal(storage.publicUrl(name), `https://cdn.example.com/files/${encoded}`)
    assert.ok((await storage.signUpload(target())).uploadUrl.startsWith('https://my-bucket.s3.ap-south-1.amazonaws.com/evidence/u1/photo.jpg?'))
  })
})

// ---- A second, minimal SigV4 verifier written independently of the module, for the stand-in store. ----
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
const hmacOf = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** The S3 check: null when the request's SigV4 signature (query or Authorization header) is valid, else why not. */
function sigV4Problem(req: IncomingMessage, keys: Record<string, string>, region: string): string | null {
  const raw = req.url ?? '/'
  const cut = raw.indexOf('?')
  const path = cut < 0 ? raw : raw.slice(0, cut)
  const pairs = (cut < 0 ? '' : raw.slice(cut + 1))
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=')
      return eq < 0 ? [decodeURIComponent(p), ''] : [decodeURIComponent(p.slice(0, eq)), decodeURIComponent(p.slice(eq + 1))]
    }) as [string, string][]
  const param = (name: string) => pairs.find(([k]) => k === name)?.[1]
  let credential: string, signedHeaders: string, given: string, date: string, payload: string
  const presigned = param('X-Amz-Signature')
  if (presigned !== undefined) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'algorithm'
    credential = param('X-Amz-Credential') ?? ''
    signedHeaders = param('X-Amz-SignedHeaders') ?? ''
    date = param('X-Amz-Date') ?? ''
    given = presigned
    payload = 'UNSIGNED-PAYLOAD'
    const d = date.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/)
    if (!d) return 'date'
    const signedAt = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(d[4]), Number(d[5]), Number(d[6]))
    if (signedAt + Number(param('X-Amz-Expires')) * 1000 < Date.now()) return 'expired'
  } else {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(String(req.headers.authorization ?? ''))
    if (!m) return 'no signature'
    ;[, credential = '', signedHeaders = '', given = ''] = m
    date = String(req.headers['x-amz-date'] ?? '')
    payload = String(req.headers['x-amz-content-sha256'] ?? '')
    if (!payload) return 'no x-amz-content-sha256'
  }
  const [keyId = '', day = '', credRegion, service, terminator] = credential.split('/')
  const secret = keys[keyId]
  if (!secret) return 'unknown key'
  if (day !== date.slice(0, 8) || credRegion !== region || service !== 's3' || terminator !== 'aws4_request') return 'scope'
  if (!signedHeaders.split(';').includes('host')) return 'host unsigned'
  const canonicalQuery = pairs
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .sort()
    .join('&')
  const headerLines = signedHeaders
    .split(';')
    .map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/ +/g, ' ')}\n`)
    .join('')
  const canonicalRequest = `${req.method}\n${path}\n${canonicalQuery}\n${headerLines}\n${signedHeaders}\n${payload}`
  const scope = `${day}/${region}/s3/aws4_request`
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${createHash('sha256').update(canonicalRequest).digest('hex')}`
  const signingKey = hmacOf(hmacOf(hmacOf(hmacOf('AWS4' + secret, day), region), 's3'), 'aws4_request')
  const expected = createHmac('sha256', signingKey).update(toSign).digest()
  const got = Buffer.from(given, 'hex')
  return got.length === expected.length && timingSafeEqual(got, expected) ? null : 'SignatureDoesNotMatch'
}

describe('against a local S3 stand-in', () => {
  let server: Server
  let endpoint: string
  const objects = new Map<string, number>([['/my-bucket/evidence/u1/found.jpg', 4_321]])
  let lastHead: IncomingMessage['headers'] | null = null
  const refused: string[] = []

  before(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!
      if (path === '/my-bucket/evidence/u1/hang.jpg') return // never answers
      if (req.method === 'HEAD') lastHead = req.headers
      if (path === '/my-bucket/evidence/u1/broken.jpg') return void res.writeHead(500).end()
      const problem = sigV4Problem(req, { AKIDTEST: SECRET }, 'ap-south-1')
      if (problem) {
        refused.push(problem)
        req.resume()
        return void res.writeHead(403, { 'content-type': 'application/xml' }).end(req.method === 'HEAD' ? undefined : `<Error><Code>${problem}</Code></Error>`)
      }
      if (req.method === 'PUT') {
        let size = 0
        req.on('data', (chunk: Buffer) => (size += chunk.length))
        req.on('end', () => {
          objects.set(path, size)
          res.writeHead(200).end()
        })
        return
      }
      if (req.method === 'HEAD') {
        const size = objects.get(path)
        if (size === undefined) return void res.writeHead(404).end()
        return void res.writeHead(200, { 'content-length': String(size), 'content-type': 'image/jpeg' }).end()
      }
      res.writeHead(405).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const storage = () => createS3Storage(config({ endpoint, forcePathStyle: true }))

  /** A PUT like a browser's: exactly these headers and body. */
  const put = (url: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'PUT', headers }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end(body)
    })

  test('when an object exists, then stat returns its size, over a SigV4 header-signed HEAD', async () => {
    assert.deepEqual(await storage().stat('evidence/u1/found.jpg'), { size: 4_321 })
    assert.ok(lastHead)
    assert.ok(String(lastHead.authorization).startsWith('AWS4-HMAC-SHA256 Credential=AKIDTEST/'))
    assert.match(String(lastHead['x-amz-date']), /^\d{8}T\d{6}Z$/)
    assert.equal(lastHead['x-amz-content-sha256'], 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  test('when the object is missing (404) or access is denied (403), then stat returns null', async () => {
    assert.equal(await storage().stat('evidence/u1/missing.jpg'), null)
    const wrongKey = createS3Storage(config({ endpoint, forcePathStyle: true, secretAccessKey: 'not-the-secret' }))
    const before = refused.length
    assert.equal(await wrongKey.stat('evidence/u1/found.jpg'), null)
    assert.deepEqual(refused.slice(before), ['SignatureDoesNotMatch'])
  })

  test('when the store fails, times out or cannot be reached, then stat throws without the secret', async () => {
    const noSecret = (error: unknown) => {
      assert.ok(error instanceof Error)
      assert.ok(!error.message.includes(SECRET), error.message)
      return true
    }
    await assert.rejects(storage().stat('evidence/u1/broken.jpg'), (e) => noSecret(e) && /answered 500/.test((e as Error).message))
    const impatient = createS3Storage(config({ endpoint, forcePathStyle: true }), { timeoutMs: 200 })
    await assert.rejects(impatient.stat('evidence/u1/hang.jpg'), (e) => noSecret(e) && /timed out/.test((e as Error).message))
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const deadPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const unreachable = createS3Storage(config({ endpoint: `http://127.0.0.1:${deadPort}`, forcePathStyle: true }))
    await assert.rejects(unreachable.stat('evidence/u1/found.jpg'), noSecret)
  })

  test('when the presigned PUT is used with the signed type and length, then the stand-in accepts it; other terms are refused', async () => {
    const body = Buffer.alloc(2_048, 7)
    const t = { objectName: 'evidence/u1/new upload.jpg', contentType: 'image/jpeg', sizeBytes: body.length, expiresAt: new Date(Date.now() + 15 * 60_000) }
    const signed = await storage().signUpload(t)

    const before = refused.length
    assert.equal(await put(signed.uploadUrl, { ...signed.headers, 'Content-Type': 'image/png' }, body), 403)
    assert.equal(await put(signed.uploadUrl, { ...signed.headers, 'Content-Length': '2047' }, body.subarray(0, 2_047)), 403)
    const tampered = signed.uploadUrl.replace('X-Amz-Expires=', 'X-Amz-Expires=9')
    assert.equal(await put(tampered, signed.headers, body), 403)
    assert.deepEqual(refused.slice(before), ['SignatureDoesNotMatch', 'SignatureDoesNotMatch', 'SignatureDoesNotMatch'])
    assert.equal(await storage().stat(t.objectName), null)

    assert.equal(await put(signed.uploadUrl, signed.headers, body), 200)
    assert.deepEqual(await storage().stat(t.objectName), { size: 2_048 })
  })
})
