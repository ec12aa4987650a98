// `npm run cluster`: several nodes on one machine (issue #43, docs/scaling.md), from Debian's packages
// and the project's own server: a PostgreSQL primary and a streaming replica (their own clusters,
// made with initdb and pg_basebackup in a temporary folder), Redis (its own, no disk), two server
// nodes (`src/server.ts`: DATABASE_URL the primary, DATABASE_READ_URL the replica, REDIS_URL) and
// HAProxy in front of them, round robin, with health checks. Demo data is seeded once (`commerce
// seed`); the credentials are printed. Ctrl-C stops everything and removes the folder.
//
// Usage: npm run cluster [-- --port 3920]
//   3920 HAProxy (the API for clients), 3921-3922 the nodes, 3925 primary, 3926 replica, 3927 Redis.
// Needs: PostgreSQL's server binaries (postgresql, /usr/lib/postgresql/<version>/bin), redis-server,
// haproxy (`apt-get install postgresql redis-server haproxy`). As root, PostgreSQL runs as the
// `postgres` user (it refuses root). test/cluster/cluster.test.ts drives it; CI runs that test.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { DemoCredentials } from '../src/seed.ts'

const root = new URL('../', import.meta.url).pathname

/** The machine's PostgreSQL server binaries (Debian: /usr/lib/postgresql/<version>/bin), newest first. */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return null
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(base, versions[0], 'bin') : null
}

const which = (command: string) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`]).toString().trim() || null
  } catch {
    return null
  }
}

/** What the machine lacks to start a cluster (empty: it can). */
export function clusterMissing(): string[] {
  return [...(postgresBin() ? [] : ['PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)']), ...['redis-server', 'haproxy'].filter((c) => !which(c))]
}

export interface ClusterNode {
  name: string
  url: string
  port: number
  /** Whether its process is running. */
  running(): boolean
}

export interface Cluster {
  /** HAProxy: what clients call. */
  url: string
  nodes: ClusterNode[]
  primaryUrl: string
  replicaUrl: string
  redisUrl: string
  credentials: DemoCredentials
  /** Kills a node at once (SIGKILL: no drain), as a crash would. */
  kill(node: number): void
  /** Starts a killed node again; resolves once it is ready. */
  restart(node: number): Promise<void>
  /** Stops or resumes the replica's replay of the primary's changes (its lag grows while stopped). */
  pauseReplica(): Promise<void>
  resumeReplica(): Promise<void>
  /** Stops everything and removes its folder. */
  stop(): Promise<void>
}

export interface ClusterOptions {
  /** HAProxy's port; the nodes take the next two, PostgreSQL base+5 and base+6, Redis base+7. 0: free ports, each its own (tests). */
  port?: number
  /** Lines of progress. */
  log?: (line: string) => void
  /** Extra variables for both nodes (tests: short job intervals). */
  nodeEnv?: Record<string, string>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A TCP port nobody listens on right now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    await sleep(200)
  }
  throw new Error(`cluster: ${what} not ready after ${timeoutMs} ms`)
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const missing = clusterMissing()
  if (missing.length > 0) throw new Error(`cluster: this machine lacks ${missing.join(', ')}`)
  const log = options.log ?? (() => {})
  const base = options.port ?? 3920
  const free = options.port === 0
  const ports = free
    ? { haproxy: await freePort(), nodes: [await freePort(), await freePort()], primary: await freePort(), replica: await freePort(), redis: await freePort() }
    : { haproxy: base, nodes: [base + 1, base + 2], primary: base + 5, replica: base + 6, redis: base + 7 }
  const bin = postgresBin()!
  const dir = mkdtempSync(join(tmpdir(), 'commerce-cluster-'))
  // PostgreSQL refuses to run as root: as root its clusters belong to `postgres`.
  const asRoot = userInfo().uid === 0
  const pgUser = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString()) : null
  if (pgUser !== null) {
    chmodSync(dir, 0o755)
    chownSync(dir, pgUser, Number(execFileSync('id', ['-g', 'postgres']).toString()))
  }
  const pg = (tool: string, args: string[]) => {
    const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args]
    return execFileSync(command, all, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString()
  }
  const children: ChildProcess[] = []
  const spawnChild = (command: string, args: string[], env: Record<string, string> = {}, name = command) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout!.on('data', (c) => (output = (output + c).slice(-20_000)))
    child.stderr!.on('data', (c) => (output = (output + c).slice(-20_000)))
    child.on('exit', (code, signal) => log(`${name} exited (${signal ?? code})`))
    Object.assign(child, { output: () => output })
    children.push(child)
    return child
  }
  const primaryDir = join(dir, 'primary')
  const replicaDir = join(dir, 'replica')
  const pgCtl = (data: string, action: 'start' | 'stop', port: number) =>
    pg('pg_ctl', ['-D', data, '-w', '-l', join(dir, `${port}.log`), ...(action === 'start' ? ['-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`] : ['-m', 'fast']), action])
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    for (const child of children.reverse()) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM')
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.on('exit', r)) : null)))
    for (const [data, port] of [[replicaDir, ports.replica], [primaryDir, ports.primary]] as const) {
      try {
        if (existsSync(join(data, 'postmaster.pid'))) pgCtl(data, 'stop', port)
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    log(`PostgreSQL primary on ${ports.primary}, streaming replica on ${ports.replica} (${dir})`)
    pg('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
    // A demo's durability is not the point: no fsync. Replication as production has it (streaming, hot standby).
    appendFileSync(join(primaryDir, 'postgresql.conf'), '\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nwal_level = replica\nmax_wal_senders = 4\nhot_standby = on\n')
    pgCtl(primaryDir, 'start', ports.primary)
    pg('createdb', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', 'commerce'])
    pg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync', '--checkpoint=fast'])
    pgCtl(replicaDir, 'start', ports.replica)
    const primaryUrl = `postgres://postgres@127.0.0.1:${ports.primary}/commerce`
    const replicaUrl = `postgres://postgres@127.0.0.1:${ports.replica}/commerce`
    const psql = (port: number, query: string) => execFileSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'commerce', '-Atqc', query]).toString().trim()

    log(`Redis on ${ports.redis}`)
    spawnChild('redis-server', ['--port', String(ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, 'redis')
    const redisUrl = `redis://127.0.0.1:${ports.redis}`
    await until('redis', async () => execFileSync('redis-cli', ['-p', String(ports.redis), 'ping']).toString().trim() === 'PONG')

    // The same on every node (docs/scaling.md): tokens, signatures and webhook secrets derive from it.
    const authSecret = randomBytes(48).toString('base64url')
    const serverEnv = (port: number): Record<string, string> => ({
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      WORKERS: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: primaryUrl,
      DATABASE_READ_URL: replicaUrl,
      REDIS_URL: redisUrl,
      // One folder for both, as a shared volume would be: local uploads are read by either node.
      DATA_DIR: join(dir, 'data'),
      AUTH_SECRET: authSecret,
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.haproxy}`,
      ...options.nodeEnv,
    })
    // The schema and the demo data, once, before any node starts.
    const seeded = execFileSync(process.execPath, ['bin/commerce.js', 'seed', '--json'], { cwd: root, env: { ...process.env, ...serverEnv(ports.nodes[0]!) } }).toString()
    const credentials = JSON.parse(seeded) as DemoCredentials
    credentials.baseUrl = `http://127.0.0.1:${ports.haproxy}`

    const nodeProcesses: (ChildProcess | null)[] = [null, null]
    const startNode = async (i: number) => {
      const name = `node${i + 1}`
      nodeProcesses[i] = spawnChild(process.execPath, ['--import', 'tsx', 'src/server.ts'], serverEnv(ports.nodes[i]!), name)
      const child = nodeProcesses[i]!
      await until(`${name} on ${ports.nodes[i]}`, async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited: ${(child as unknown as { output(): string }).output()}`)
        return (await fetch(`http://127.0.0.1:${ports.nodes[i]}/api/v1/health/ready`)).status === 200
      })
    }
    log(`server nodes on ${ports.nodes.join(' and ')}`)
    await Promise.all([startNode(0), startNode(1)])

    const haproxyConfig = join(dir, 'haproxy.cfg')
    writeFileSync(
      haproxyConfig,
      [
        'global',
        '  maxconn 4096',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        // A request a dead node never got goes to the other; one it may have got (and perhaps
        // committed) is answered 502 and left to the client, which retries with its idempotency key.
        '  retries 2',
        '  option redispatch',
        '  retry-on conn-failure',
        'frontend api',
        `  bind 127.0.0.1:${ports.haproxy}`,
        '  default_backend nodes',
        'backend nodes',
        '  balance roundrobin',
        '  option httpchk GET /api/v1/health/ready',
        '  http-response set-header x-commerce-node %s',
        ...ports.nodes.map((port, i) => `  server node${i + 1} 127.0.0.1:${port} check inter 500 fall 2 rise 2`),
        '',
      ].join('\n'),
    )
    log(`HAProxy on ${ports.haproxy}`)
    spawnChild('haproxy', ['-f', haproxyConfig, '-db'], {}, 'haproxy')
    await until('haproxy', async () => (await fetch(`http://127.0.0.1:${ports.haproxy}/api/v1/health/ready`)).status === 200)

    return {
      url: `http://127.0.0.1:${ports.haproxy}`,
      nodes: ports.nodes.map((port, i) => ({ name: `node${i + 1}`, port, url: `http://127.0.0.1:${port}`, running: () => nodeProcesses[i]?.exitCode === null && nodeProcesses[i]?.signalCode === null })),
      primaryUrl,
      replicaUrl,
      redisUrl,
      credentials,
      kill(i) {
        const child = nodeProcesses[i]
        if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL')
      },
      restart: (i) => startNode(i),
      async pauseReplica() {
        psql(ports.replica, 'select pg_wal_replay_pause()')
      },
      async resumeReplica() {
        psql(ports.replica, 'select pg_wal_replay_resume()')
      },
      stop,
    }
  } catch (err) {
    const outputs = children.map((c) => (c as unknown as { output(): string }).output()).join('\n')
    await stop()
    throw new Error(`${(err as Error).message}\n${outputs}`.slice(0, 20_000), { cause: err })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '3920' } } })
  const cluster = await startCluster({ port: Number(values.port), log: (line) => console.log(`cluster: ${line}`) })
  const c = cluster.credentials
  console.log(
    [
      '',
      `API (HAProxy over ${cluster.nodes.map((n) => n.url).join(' and ')}): ${cluster.url}/api/v1`,
      `PostgreSQL primary ${cluster.primaryUrl}, replica ${cluster.replicaUrl}; Redis ${cluster.redisUrl}`,
      `Partner ID ${c.partner.id}, secret ${c.partner.secret}; API key ${c.apiKey}; admin ${c.admin.email} / ${c.admin.password}`,
      'Each answer names the node that served it (x-commerce-node). Ctrl-C stops everything.',
    ].join('\n'),
  )
  const shutdown = () => void cluster.stop().then(() => process.exit(0))
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}
