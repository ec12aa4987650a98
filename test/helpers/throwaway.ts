// Throwaway services for the fault tests (test/faults/): a PostgreSQL cluster of its own (initdb +
// pg_ctl in a temporary directory, on a free port), a redis-server of its own, a TCP delay proxy,
// and the real server as a child process. A fault test can stop, crash, freeze or slow any of them
// without touching the machine's PostgreSQL and Redis that the rest of the suite uses.
// Everything started here is killed and its directory removed by cleanup(), and again at process
// exit should a test die before its `after` hook runs.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort } from './factories.ts'
import { captureProcessLogs, serverLogEnv } from './log-capture.ts'

const run = promisify(execFile)
const PG_BIN = '/usr/lib/postgresql/15/bin'
const root = new URL('../../', import.meta.url).pathname

const exitCleanups = new Set<() => void>()
process.once('exit', () => {
  for (const cleanup of exitCleanups) {
    try {
      cleanup()
    } catch {
      // best effort: the process is going away
    }
  }
})

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- PostgreSQL ---------------------------------------------------------------------------------

export interface ThrowawayPostgres {
  port: number
  /** postgres://postgres@127.0.0.1:PORT/NAME */
  url(database: string): string
  createDatabase(name: string): Promise<string>
  /** One statement as the superuser on `database` (default `postgres`); returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], database?: string): Promise<T[]>
  start(): Promise<void>
  stop(mode: 'fast' | 'immediate'): Promise<void>
  /** `pg_ctl restart -m MODE`: down for as long as PostgreSQL takes to stop and start again. */
  restart(mode: 'fast' | 'immediate'): Promise<void>
  /** pg_terminate_backend of every connection to `database`; returns how many were killed. */
  terminateBackends(database: string): Promise<number>
  cleanup(): Promise<void>
}

/** initdb as the postgres user (initdb refuses root) in a temp dir, then starts it on a free port. */
export async function startThrowawayPostgres(settings: Record<string, string> = {}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-faults-pg-'))
  chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()))
  const dataDir = join(dir, 'data')
  const port = await freePort()
  const asPostgres = (bin: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args], { timeout: 60_000 })
  const options = Object.entries({
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    // Speed without changing what a client is told: fsync only matters if the machine itself
    // crashes. (synchronous_commit=off would not do: -m immediate then loses acknowledged commits.)
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: '60',
    // A backend whose client vanished (SIGKILLed server) is ended within this, even mid-pg_sleep.
    client_connection_check_interval: '200ms',
    ...settings,
  })
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ')
  const ctl = (args: string[]) => asPostgres('pg_ctl', ['-D', dataDir, '-l', join(dir, 'log'), ...args])
  const stopNow = () => {
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', dataDir, 'stop', '-m', 'immediate', '-w'], { stdio: 'ignore', timeout: 20_000 })
    } catch {
      // not running
    }
    rmSync(dir, { recursive: true, force: true })
  }
  exitCleanups.add(stopNow)
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  const query = async <T>(sql: string, params: unknown[] = [], database = 'postgres') => {
    const client = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 5000 })
    await client.connect()
    try {
      return (await client.query(sql, params)).rows as T[]
    } finally {
      await client.end().catch(() => {})
    }
  }
  try {
    await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
    await ctl(['start', '-w', '-t', '60', '-o', `-p ${port} ${options}`])
  } catch (err) {
    stopNow()
    exitCleanups.delete(stopNow)
    throw err
  }
  return {
    port,
    url,
    query,
    async createDatabase(name) {
      await query(`create database "${name}"`)
      return url(name)
    },
    start: async () => {
      await ctl(['start', '-w', '-t', '60', '-o', `-p ${port} ${options}`])
    },
    stop: async (mode) => {
      await ctl(['stop', '-m', mode, '-w', '-t', '60'])
    },
    restart: async (mode) => {
      await ctl(['restart', '-m', mode, '-w', '-t', '60', '-o', `-p ${port} ${options}`])
    },
    async terminateBackends(database) {
      const rows = await query<{ ok: boolean }>(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      )
      return rows.filter((r) => r.ok).length
    },
    async cleanup() {
      stopNow()
      exitCleanups.delete(stopNow)
    },
  }
}

// ---- Redis --------------------------------------------------------------------------------------

export interface ThrowawayRedis {
  port: number
  url: string
  pid(): number
  /** `redis-cli shutdown nosave`; resolves once the process has exited. */
  shutdown(): Promise<void>
  /** A new redis-server on the same port (empty: nothing was saved). */
  start(): Promise<void>
  /** kill -STOP: connections stay open, nothing answers (the nastiest case). */
  freeze(): void
  /** kill -CONT */
  thaw(): void
  /** `CLIENT PAUSE ms ALL`: the server runs and accepts connections, but no client's command is answered for `ms`. */
  pause(ms: number): Promise<void>
  cleanup(): Promise<void>
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort()
  let child: ChildProcess | null = null
  let exited: Promise<void> = Promise.resolve()
  const kill = () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    try {
      child.kill('SIGCONT')
      child.kill('SIGKILL')
    } catch {
      // gone already
    }
  }
  exitCleanups.add(kill)
  const start = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = proc
    let output = ''
    proc.stdout!.on('data', (c) => (output += c))
    proc.stderr!.on('data', (c) => (output += c))
    exited = new Promise((resolve) => proc.once('exit', () => resolve()))
    const deadline = Date.now() + 15_000
    while (!/Ready to accept connections/.test(output)) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start:\n${output}`)
      await sleep(20)
    }
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => child!.pid!,
    async shutdown() {
      await run('redis-cli', ['-p', String(port), 'shutdown', 'nosave']).catch(() => {})
      await exited
    },
    start,
    freeze: () => child!.kill('SIGSTOP'),
    thaw: () => child!.kill('SIGCONT'),
    async pause(ms) {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'client', 'pause', String(ms), 'all'])
      if (stdout.trim() !== 'OK') throw new Error(`CLIENT PAUSE answered ${stdout}`)
    },
    async cleanup() {
      kill()
      await exited
      exitCleanups.delete(kill)
    },
  }
}

// ---- Delay proxy --------------------------------------------------------------------------------

export interface DelayProxy {
  port: number
  /** Delay added to every chunk, each way (a round trip costs twice this). */
  setDelay(ms: number): void
  close(): Promise<void>
}

/** A TCP proxy to 127.0.0.1:targetPort that holds every chunk `delayMs` before passing it on. */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  let delay = delayMs
  const sockets = new Set<Socket>()
  const forward = (from: Socket, to: Socket) => {
    // Chunks leave in arrival order even when the delay changes mid-stream.
    let due = 0
    from.on('data', (chunk) => {
      due = Math.max(Date.now() + delay, due)
      setTimeout(() => to.writable && to.write(chunk), due - Date.now())
    })
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, due - Date.now())))
    from.on('error', () => to.destroy())
  }
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort })
    sockets.add(client).add(upstream)
    client.on('close', () => sockets.delete(client))
    upstream.on('close', () => sockets.delete(upstream))
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    setDelay: (ms) => {
      delay = ms
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

// ---- The server as a child process --------------------------------------------------------------

export interface ServerProcess {
  port: number
  /** http://127.0.0.1:PORT/api/v1 */
  base: string
  pid: number
  output(): string
  /** Resolves with the exit code (null when killed by a signal) and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves once /health/ready answers 200. */
  ready(timeoutMs?: number): Promise<void>
  kill(signal: NodeJS.Signals): void
}

/**
 * `node --import tsx src/server.ts` (one process, no workers) with this environment, on a free port
 * or on `options.port` (a restarted server in the place of a killed one, where clients expect it).
 */
export async function startServerProcess(env: Record<string, string>, options: { port?: number } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort())
  const fullEnv: Record<string, string> = { ...(process.env as Record<string, string>), HOST: '127.0.0.1', PORT: String(port), WORKERS: '1', ...serverLogEnv('warn'), ...env }
  for (const name of ['NODE_OPTIONS', 'TEST_PGLITE_TEMPLATE']) delete fullEnv[name]
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  captureProcessLogs(child)
  let out = ''
  child.stdout!.on('data', (c) => (out += c))
  child.stderr!.on('data', (c) => (out += c))
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  exitCleanups.add(kill)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCleanups.delete(kill)
      resolve({ code, signal })
    }),
  )
  const base = `http://127.0.0.1:${port}/api/v1`
  return {
    port,
    base,
    pid: child.pid!,
    output: () => out,
    exited,
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited before it was ready:\n${out}`)
        try {
          const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(2000) })
          if (res.status === 200) return
        } catch {
          // not listening yet
        }
        await sleep(100)
      }
      throw new Error(`server was not ready within ${timeoutMs} ms:\n${out}`)
    },
    kill: (signal) => child.kill(signal),
  }
}
