// `npm start` on an empty DATA_DIR: migrates, seeds, prints and writes the demo credentials, serves
// the API with them, refuses a second process on the same embedded database, and stops cleanly.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { once } from 'node:events'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { freePort } from '../helpers/factories.ts'
import { captureProcessLogs, serverLogEnv } from '../helpers/log-capture.ts'

const root = new URL('../../', import.meta.url).pathname
const dataDir = mkdtempSync(join(tmpdir(), 'commerce-start-'))
after(() => rmSync(dataDir, { recursive: true, force: true }))

function start(port: number): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), ...serverLogEnv('info') } // info: the test reads 'shutting down'
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'AUTH_SECRET', 'NODE_ENV', 'NODE_OPTIONS', 'TEST_PGLITE_TEMPLATE']) delete env[name]
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  captureProcessLogs(child)
  let out = ''
  child.stdout!.on('data', (chunk) => (out += chunk))
  child.stderr!.on('data', (chunk) => (out += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => out, exited }
}

async function waitForReady(port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`)
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`server did not become ready:\n${output()}`)
}

test('npm start on an empty DATA_DIR serves the API with the demo data, and stops gracefully', { timeout: 120_000 }, async () => {
  const port = await freePort()
  const server = start(port)
  try {
    await waitForReady(port, server.output)
    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'))
    assert.match(credentials.partner.id, /^prt_/)
    assert.match(server.output(), new RegExp(credentials.partner.id))
    assert.match(server.output(), new RegExp(credentials.apiKey))
    assert.match(server.output(), new RegExp(credentials.admin.email))
    // Where to go, and where the credentials are, on every start.
    assert.match(server.output(), new RegExp(`back office http://localhost:${port}/admin`))
    assert.match(server.output(), new RegExp(`Demo credentials: ${join(dataDir, 'credentials.json')}`))

    const base = `http://127.0.0.1:${port}/api/v1`
    const token = await fetch(`${base}/auth/customer-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-partner-id': credentials.partner.id, 'x-partner-secret': credentials.partner.secret },
      body: JSON.stringify({ phone: '9876543210', name: 'Asha Rao' }),
    })
    assert.equal(token.status, 200)
    const login = await fetch(`${base}/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials.admin),
    })
    assert.equal(login.status, 200)

    // The embedded database serves one process: a second start is refused with a clear message.
    const second = start(await freePort())
    assert.equal(await second.exited, 1)
    assert.match(second.output(), /in use by process/)
    // Stopping as a newcomer does: a signal to npm's own process reaches the server. With it, the
    // copy of the signal a terminal's Ctrl-C (or a kill of the process group) sends the server
    // itself: a stop asked twice still closes the database.
    const serverPid = Number(readFileSync(join(dataDir, 'pglite.lock'), 'utf8'))
    assert.notEqual(serverPid, server.child.pid)
    // A request still arriving (its headers unfinished) holds the graceful close open, so the copy
    // surely reaches a server that is still closing, on a fast machine too.
    const inFlight = connect(port, '127.0.0.1')
    await once(inFlight, 'connect')
    inFlight.write('GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    let answer = ''
    inFlight.on('data', (chunk) => (answer += chunk))
    process.kill(server.child.pid!, 'SIGTERM')
    while (!server.output().includes('"msg":"shutting down"')) await new Promise((r) => setTimeout(r, 10))
    process.kill(serverPid, 'SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    assert.doesNotThrow(() => process.kill(serverPid, 0), 'the copy of the signal did not end the server mid-close')
    inFlight.end('Connection: close\r\n\r\n')
    await once(inFlight, 'close')
    // Answered, not dropped: a request that arrives once the close began is told to retry.
    assert.match(answer, /^HTTP\/1\.1 503 /, answer)
  } catch (err) {
    process.kill(-server.child.pid!, 'SIGTERM')
    throw err
  }
  await server.exited
  const deadline = Date.now() + 15_000
  while (existsSync(join(dataDir, 'pglite.lock')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  assert.equal(existsSync(join(dataDir, 'pglite.lock')), false, 'graceful shutdown released the embedded database')
  assert.equal(server.output().match(/"msg":"shutting down"/g)?.length, 1, server.output())
  assert.doesNotMatch(server.output(), /exiting now/)
})
