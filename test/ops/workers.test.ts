// `npm start -- --workers 2` on PostgreSQL + Redis: the primary migrates once, two workers share
// the port, a worker that dies is replaced, and the whole group stops cleanly on SIGTERM.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, before, test } from 'node:test'
import { freshPostgres } from '../helpers/app.ts'
import { freePort } from '../helpers/factories.ts'
import { captureProcessLogs, serverLogEnv } from '../helpers/log-capture.ts'
import { REDIS_URL as redisUrl, unlessMachineHas } from '../helpers/machine-services.ts'

const root = new URL('../../', import.meta.url).pathname
const skip = await unlessMachineHas('postgres', 'redis')
let database: { url: string; drop(): Promise<void> }
before(async () => {
  if (!skip) database = await freshPostgres()
})
after(() => database?.drop())

test('two workers on PostgreSQL + Redis share the port and replace a worker that dies', { timeout: 240_000, skip }, async () => {
  const port = await freePort()
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...serverLogEnv('warn'),
    AUTH_SECRET: 'w'.repeat(40),
    DATA_DIR: `/tmp/commerce-workers-${process.pid}`,
  }
  delete env.NODE_OPTIONS
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts', '--workers', '2'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  captureProcessLogs(child)
  let output = ''
  child.stdout!.on('data', (c) => (output += c))
  child.stderr!.on('data', (c) => (output += c))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  try {
    const ready = async () => {
      // Two workers start from TypeScript: seconds on a quiet machine, much longer on a loaded one.
      const deadline = Date.now() + 100_000
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`)
          if (res.status === 200) return (await res.json()) as { data: { database: string; redis: string } }
        } catch {
          // starting
        }
        await new Promise((r) => setTimeout(r, 200))
      }
      throw new Error(`not ready:\n${output}`)
    }
    const health = await ready()
    assert.equal(health.data.database, 'up')
    assert.equal(health.data.redis, 'up')
    const statuses = await Promise.all(Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${port}/api/v1/health/live`).then((r) => r.status)))
    assert.ok(statuses.every((s) => s === 200))

    // Kill one worker: the primary starts another and the service keeps answering.
    // The primary's children that run the server (tsx's esbuild service may be a child of it too).
    const { execFileSync } = await import('node:child_process')
    const serverWorkers = () => {
      try {
        return execFileSync('pgrep', ['-P', String(child.pid), '-f', 'src/server.ts']).toString().trim().split('\n').map(Number)
      } catch {
        return [] // pgrep exits 1 when it finds none
      }
    }
    const workers = serverWorkers()
    assert.equal(workers.length, 2, `two workers expected, got ${workers}`)
    process.kill(workers[0]!, 'SIGKILL')
    // Wait for the replacement itself (the other worker answers meanwhile), then for it to serve.
    const deadline = Date.now() + 30_000
    let now = serverWorkers()
    while ((now.length < 2 || now.includes(workers[0]!)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      now = serverWorkers()
    }
    assert.ok(now.length === 2 && !now.includes(workers[0]!), `the primary starts a new worker, got ${now}`)
    await ready()
  } finally {
    process.kill(-child.pid!, 'SIGTERM')
  }
  await exited
})
