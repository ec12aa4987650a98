// Small pieces shared by the load checks (test/load/*.test.ts) and the nightly rows (scripts/stress.ts):
// percentiles, and a real server process on a given database and Redis.
import { type ChildProcess, spawn } from 'node:child_process'
import { captureProcessLogs, serverLogEnv } from '../helpers/log-capture.ts'

/** The p-th percentile (nearest rank) of a list of numbers; 0 for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const root = new URL('../../', import.meta.url).pathname

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** What the process printed, for failure messages. */
  output(): string
  stop(): Promise<void>
}

/**
 * `src/server.ts` in a process of its own (one worker) on this port, with these variables over the
 * current environment; resolves once /health/ready answers 200. `bundle`: run `dist/server.js`, the
 * bundle `npm start` runs (built by the caller with scripts/build.mjs), as the nightly rows that
 * measure memory and latency do.
 */
export async function startServer(port: number, env: Record<string, string>, timeoutMs = 60_000, options: { bundle?: boolean; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const fullEnv: Record<string, string> = { ...(process.env as Record<string, string>), HOST: '127.0.0.1', PORT: String(port), ...serverLogEnv('warn'), WORKERS: '1', ...env }
  delete fullEnv.NODE_OPTIONS
  // BENCH_PROFILE=<dir>: the server writes a CPU profile there when it stops, as in npm run bench.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const args = [...profile, ...(options.nodeArgs ?? []), ...(options.bundle ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'])]
  const child = spawn(process.execPath, args, { cwd: root, env: fullEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  captureProcessLogs(child)
  let output = ''
  child.stdout!.on('data', (c) => (output += c))
  child.stderr!.on('data', (c) => (output += c))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const server: ServerProcess = {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM')
      await exited
    },
  }
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server on port ${port} exited with ${child.exitCode}:\n${output}`)
    try {
      if ((await fetch(`${url}/api/v1/health/ready`)).status === 200) return server
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  await server.stop()
  throw new Error(`server on port ${port} not ready after ${timeoutMs} ms:\n${output}`)
}
