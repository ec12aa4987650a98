// Log capture for reliability row SE-11: when TEST_LOG_DIR is set (scripts/test.ts sets it for every
// run), every test app logs through the service's own logger (`createLogger`, redaction included)
// at `trace` (finer than production's `info`) into one file per test process, and every server
// process a test starts has its log lines copied into a file of its own. scripts/test.ts scans them
// all afterwards (test/helpers/secret-scan.ts).
import type { ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { createLogger } from '../../src/bootstrap.ts'
import type { Config } from '../../src/config.ts'

/**
 * The level logs are captured at: finer than production's `info`, so nothing the service could log
 * escapes the scan. The service itself logs nothing below `info` (Fastify adds a reply error at
 * `debug` and client errors at `trace`), so this costs the suite nothing over `info`.
 */
export const CAPTURE_LOG_LEVEL = 'trace'

const captureDir = process.env.TEST_LOG_DIR || null

/** The test file this process runs (node:test starts one process per file), for file names. */
function testName(): string {
  return basename(process.argv[1] ?? 'unknown').replace(/\.test\.ts$/, '').replace(/[^A-Za-z0-9_.-]/g, '_')
}

let destination: pino.DestinationStream | undefined
function captureDestination(dir: string): pino.DestinationStream {
  // One file per test process, shared by every app it builds; written asynchronously and flushed
  // at exit by pino (sonic-boom), so logging costs the tests little.
  destination ??= pino.destination({ dest: join(dir, `app.${testName()}.${process.pid}.jsonl`), sync: false, mkdir: true, minLength: 8192 })
  return destination
}

/**
 * The logger of an app a test builds: with TEST_LOG_DIR, the service's logger at CAPTURE_LOG_LEVEL writing to
 * the capture file; without it, silent, as before.
 */
export function testLogger(config: Config): FastifyBaseLogger {
  if (!captureDir) return pino({ level: 'silent' })
  return createLogger({ ...config, logLevel: CAPTURE_LOG_LEVEL }, captureDestination(captureDir))
}

/**
 * The environment a server process started by a test needs for its logs to be captured: the
 * capture level (instead of the quieter one the test asked for) when TEST_LOG_DIR is set.
 */
export function serverLogEnv(level = 'warn'): { LOG_LEVEL: string } {
  return { LOG_LEVEL: captureDir ? CAPTURE_LOG_LEVEL : level }
}

/**
 * Copies the log lines a server process writes (pino's JSON lines on stdout and stderr; other
 * output, such as the demo credentials banner of a first start, is not a log) into a capture file
 * of its own. Does nothing without TEST_LOG_DIR.
 */
export function captureProcessLogs(child: ChildProcess, label = 'server'): void {
  if (!captureDir || !child.pid) return
  mkdirSync(captureDir, { recursive: true })
  const file = join(captureDir, `${label}.${testName()}.${process.pid}-${child.pid}.jsonl`)
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    let partial = ''
    stream.on('data', (chunk: Buffer | string) => {
      const text = partial + chunk.toString()
      const end = text.lastIndexOf('\n')
      partial = end === -1 ? text : text.slice(end + 1)
      if (end !== -1) keepLogLines(file, text.slice(0, end + 1))
    })
    stream.on('end', () => {
      if (partial) keepLogLines(file, `${partial}\n`)
      partial = ''
    })
  }
}

function keepLogLines(file: string, text: string): void {
  const lines = text.split('\n').filter((line) => line.startsWith('{"level":'))
  if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`)
}
