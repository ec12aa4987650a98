// Starts the API: validates the configuration, migrates, seeds an empty embedded database with
// demo data, listens, and shuts down gracefully (in-flight requests finish) on SIGINT/SIGTERM.
// With PostgreSQL, WORKERS=N (or --workers N) forks N processes sharing the port (node:cluster).
import cluster from 'node:cluster'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.ts'
import { createLogger, openRuntime } from './bootstrap.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { DatabaseLockedError } from './db/client.ts'
import { describeCredentials, isEmptyDatabase, seedDemoData } from './seed.ts'

function workersFromArgs(config: Config): number {
  const index = process.argv.indexOf('--workers')
  if (index === -1) return config.workers
  const value = process.argv[index + 1]
  if (value === 'auto') return loadConfig({ ...process.env, WORKERS: 'auto' }).workers
  if (!value || !/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError('--workers', 'must be a positive number or auto')
  return Number(value)
}

async function startPrimary(config: Config, workers: number) {
  const logger = createLogger(config)
  // The primary migrates once, so workers never race on the schema.
  const runtime = await openRuntime(config, logger)
  await runtime.close()
  logger.info({ workers }, 'starting workers')
  for (let i = 0; i < workers; i++) cluster.fork()
  process.stdout.write(`${startHints(config)}\n`)
  let stopping = false
  cluster.on('exit', (worker, code) => {
    if (stopping) return
    logger.warn({ pid: worker.process.pid, code }, 'worker exited; starting another')
    cluster.fork()
  })
  const stop = () => {
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/**
 * The reservation sweeper, refund retries, idempotency-key expiry, pickups carriers did not
 * accept, kept carrier callbacks past their time and tax documents still waiting for their number, every `intervalMs`. Safe on
 * every node at once (row locks with SKIP LOCKED); one run at a time per process.
 */
function startBackgroundJobs(app: Awaited<ReturnType<typeof buildApp>>, intervalMs: number) {
  let running: Promise<void> | null = null
  const run = async () => {
    try {
      const cancelled = await app.payments.sweepExpiredReservations()
      if (cancelled > 0) app.log.info({ cancelled }, 'cancelled unpaid orders past their reservation')
      await app.payments.retryRefundsAndPurgeKeys()
      const pickups = await app.shipping.retryPickups()
      if (pickups > 0) app.log.info({ pickups }, 'carriers accepted pickups asked for again')
      await app.shipping.purgeKeptCallbacks()
      await app.tax.numberWaitingDocuments()
    } catch (err) {
      app.log.warn({ err }, 'background job failed; it runs again at the next interval')
    }
  }
  const timer = setInterval(() => {
    running ??= run().finally(() => {
      running = null
    })
  }, intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}

/**
 * Where to go, printed by every start, once (the first start also prints the demo credentials
 * above it): the API, its reference, the back office, and the credentials file when
 * there is one.
 */
function startHints(config: Config): string {
  const credentials = join(config.dataDir, 'credentials.json')
  return [
    `commerce-api: ${config.publicBaseUrl}/api/v1 (reference ${config.publicBaseUrl}/docs, back office ${config.publicBaseUrl}/admin)`,
    ...(existsSync(credentials) ? [`Demo credentials: ${credentials}`] : []),
    'Stop it with Ctrl-C (or SIGTERM to this process): it finishes what it serves, then closes the database.',
  ].join('\n')
}

/** A second signal within this long of the first is the same stop request, sent twice. */
const SAME_SIGNAL_MS = 1000

async function startServer(config: Config) {
  const logger = createLogger(config)
  const runtime = await openRuntime(config, logger)
  if (runtime.database.kind === 'pglite' && (await isEmptyDatabase(runtime.database.db))) {
    const credentials = await seedDemoData(runtime.database.db, config.publicBaseUrl)
    writeFileSync(join(config.dataDir, 'credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
    process.stdout.write(`\n${describeCredentials(credentials)}\n\n`)
  }
  const app = await buildApp(runtime)
  const jobs = startBackgroundJobs(app, config.jobIntervalMs)
  const dispatcher = app.dispatcher.start()
  // Signals are ours, not close-with-grace's (it exits at once on a second one): Ctrl-C on `npm
  // start` reaches the server twice, from the terminal (the whole process group) and forwarded by
  // npm, and a kill of npm's process group does the same. The copy that comes within a second
  // is the same request; exiting on it would leave the embedded database unclosed and locked.
  const closer = closeWithGrace({ delay: 10_000, logger, skip: ['SIGINT', 'SIGTERM'] }, async ({ err }) => {
    if (err) logger.error({ err }, 'shutting down after an error')
    await jobs.stop()
    await dispatcher.stop()
    // close() waits for every connection; a keep-alive connection whose request finishes during
    // the drain stays open (clients and balancers hold them for a minute) and would keep the
    // process alive until the 10 s grace ran out. Close connections as they fall idle.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100)
    try {
      await app.close()
    } finally {
      clearInterval(reaper)
    }
    await runtime.close()
  })
  let firstSignalAt = 0
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now()
      logger.info({ signal }, 'shutting down')
      void closer.close()
    } else if (Date.now() - firstSignalAt > SAME_SIGNAL_MS) {
      logger.error({ signal }, 'second signal while shutting down: exiting now')
      process.exit(1)
    }
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  await app.listen({ port: config.port, host: config.host })
  if (cluster.isPrimary) process.stdout.write(`${startHints(config)}\n`)
}

async function main() {
  let config: Config
  try {
    config = loadConfig()
    const workers = workersFromArgs(config)
    if (cluster.isPrimary && workers > 1) {
      if (!config.databaseUrl) {
        process.stderr.write('The embedded database serves one process: ignoring WORKERS; set DATABASE_URL to run several.\n')
      } else {
        return startPrimary(config, workers)
      }
    }
    await startServer(config)
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DatabaseLockedError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
}

await main()
