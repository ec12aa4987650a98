// Issue #20: answers to requests rejected before a route runs carried neither the error body nor
// the security headers: a URL over 16 kB got Node's own 431, and an over-long path parameter got
// 414 in the error body but without helmet's headers. Over a real listening port, because
// app.inject does not go through Node's HTTP parser, where the 431 comes from.
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let port: number
before(async () => {
  t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as { port: number }).port
})
after(() => t.close())

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends bytes as they are and reads the answer until the server closes or the body is complete. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    let data = Buffer.alloc(0)
    const parse = () => {
      const text = data.toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return null
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      const body = text.slice(end + 4)
      if (headers['content-length'] && Buffer.byteLength(body) < Number(headers['content-length'])) return null
      return { status: Number(statusLine!.split(' ')[1]), headers, body }
    }
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk])
      const answer = parse()
      if (answer) {
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      const answer = parse()
      if (answer) resolve(answer)
      else reject(new Error(`no complete answer: ${JSON.stringify(data.toString('utf8').slice(0, 200))}`))
    })
  })
}

async function viaFetch(path: string, init: RequestInit = {}): Promise<RawAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, init)
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
}

function assertErrorAnswer(res: RawAnswer, status: number, path: string, label: string) {
  assert.equal(res.status, status, `${label}: ${res.body.slice(0, 200)}`)
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, label)
  const body = JSON.parse(res.body)
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'], label)
  assert.equal(body.statusCode, status, label)
  assert.equal(typeof body.message, 'string', label)
  assert.ok(body.error.length > 0, label)
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)) && body.timestamp.endsWith('Z'), `${label}: ${body.timestamp}`)
  assert.equal(body.path, path, label)
  assert.equal(res.headers['x-content-type-options'], 'nosniff', label)
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN', label)
  assert.match(res.headers['strict-transport-security'] ?? '', /^max-age=\d+; includeSubDomains/, label)
  assert.equal(res.headers['x-powered-by'], undefined, label)
}

describe('answers to requests rejected before any route runs, over a real port', () => {
  test('when the URL is over 16 kB, then 431 in the error body with the security headers', async () => {
    const path = `/api/v1/products/${'a'.repeat(17_000)}`
    const res = await raw(`GET ${path}?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    assertErrorAnswer(res, 431, path.slice(0, 2048), '431 URL')
    assert.equal(JSON.parse(res.body).message, 'The request URL or headers are too large')
    assert.equal(res.headers.connection, 'close')
  })

  test('when the headers are over 16 kB, then 431 in the error body with the security headers', async () => {
    const res = await raw(`GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`)
    assertErrorAnswer(res, 431, '/api/v1/health/live', '431 headers')
  })

  test('when the request is not valid HTTP, then 400 in the error body with the security headers', async () => {
    const res = await raw('GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n')
    assertErrorAnswer(res, 400, '/api/v1/health/live', '400 malformed HTTP')
  })

  test('when a path parameter is 5,000 characters long, then 414 in the error body with the security headers', async () => {
    const path = `/api/v1/orders/${'x'.repeat(5000)}`
    assertErrorAnswer(await viaFetch(path), 414, path, '414')
  })

  test('when the percent-encoding of the URL is malformed, then 400 in the error body with the security headers', async () => {
    assertErrorAnswer(await viaFetch('/api/v1/products/%zz'), 400, '/api/v1/products/%zz', '400 bad URL')
  })

  test('when the route is unknown, then 404 in the error body with the security headers', async () => {
    assertErrorAnswer(await viaFetch('/api/v1/no-such-route?x=1'), 404, '/api/v1/no-such-route', '404')
  })

  test('when the JSON body is malformed, then 400 in the error body with the security headers', async () => {
    const res = await viaFetch('/api/v1/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"refreshToken": ' })
    assertErrorAnswer(res, 400, '/api/v1/auth/refresh', '400 JSON')
    assert.equal(JSON.parse(res.body).message, 'Request body is not valid JSON')
  })

  test('when the body is over BODY_LIMIT_BYTES, then 413 in the error body with the security headers', async () => {
    const res = await viaFetch('/api/v1/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: 'x'.repeat(4096) }) })
    assertErrorAnswer(res, 413, '/api/v1/auth/refresh', '413')
  })
})

describe('answers while the server shuts down, over a real port', () => {
  test('when a request arrives while the server drains, then 503 in the error body with the security headers and retry-after', async () => {
    let entered!: () => void
    let release!: () => void
    const inFlight = new Promise<void>((r) => (entered = r))
    const released = new Promise<void>((r) => (release = r))
    const d = await createTestApp({
      extraRoutes: (app) =>
        app.get('/probe/slow', async () => {
          entered()
          await released
          return { ok: true }
        }),
    })
    await d.app.listen({ port: 0, host: '127.0.0.1' })
    const drainingPort = (d.app.server.address() as { port: number }).port
    // A request in flight holds its connection open; a second one sent on it once close() has
    // begun is a request that arrives while the server drains.
    const socket = connect(drainingPort, '127.0.0.1', () => socket.write('GET /probe/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
    let data = ''
    socket.on('data', (c) => (data += c))
    socket.on('error', () => {})
    const socketClosed = new Promise<void>((r) => socket.on('close', () => r()))
    await inFlight
    // The server has read the second request once Node emits it (pipelined requests are parsed while
    // the first answer is pending; answers go out in order).
    const secondRead = new Promise<void>((r) => d.app.server.on('request', (req) => req.url === '/api/v1/health/live' && r()))
    const closed = d.close()
    // close() has begun once the server stops listening.
    while (d.app.server.listening) await new Promise((r) => setImmediate(r))
    socket.write('GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await secondRead
    release()
    await Promise.race([socketClosed, new Promise((r) => setTimeout(r, 5000))])
    socket.destroy()
    await closed
    const answers = data.split(/(?=HTTP\/1\.1 )/)
    assert.equal(answers.length, 2, data.slice(0, 500))
    assert.match(answers[0]!, /^HTTP\/1\.1 200/, 'the request in flight completes')
    const second = answers[1]!
    const end = second.indexOf('\r\n\r\n')
    const headers = Object.fromEntries(second.slice(0, end).split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
    assertErrorAnswer({ status: Number(second.split(' ')[1]), headers, body: second.slice(end + 4) }, 503, '/api/v1/health/live', '503 while closing')
    assert.equal(headers['retry-after'], '1')
  })
})
