// The machine's PostgreSQL and Redis, which a few tests of the fast suite use beside the embedded
// database: a pool's behaviour, a read replica, several processes sharing one database or Redis.
// On a machine without them (a newcomer's `npm test` with Node alone) such a test is skipped and
// says what it needs; CI sets REQUIRE_MACHINE_SERVICES=1, under which it runs and fails instead.
import { connect } from 'node:net'
import { POSTGRES_URL } from './app.ts'

export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'

const SERVICES = {
  postgres: { url: POSTGRES_URL, defaultPort: 5432, name: 'PostgreSQL' },
  redis: { url: REDIS_URL, defaultPort: 6379, name: 'Redis' },
}

function answers(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port) || defaultPort, timeout: 1000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    socket.once('timeout', () => done(false))
  })
}

/**
 * For node:test's `skip`: false when each service answers (or REQUIRE_MACHINE_SERVICES=1), else
 * why the test does not run.
 */
export async function unlessMachineHas(...services: (keyof typeof SERVICES)[]): Promise<string | false> {
  if (process.env.REQUIRE_MACHINE_SERVICES === '1') return false
  const missing: string[] = []
  for (const service of services) {
    const { url, defaultPort, name } = SERVICES[service]
    if (!(await answers(url, defaultPort))) missing.push(`${name} at ${new URL(url).host || url}`)
  }
  return missing.length ? `needs the machine's ${missing.join(' and ')} (CI has them: REQUIRE_MACHINE_SERVICES=1)` : false
}
