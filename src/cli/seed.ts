import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeCredentials, seedDemoData } from '../seed.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const seed: Command = {
  summary: 'Create the demo data and print fresh demo credentials',
  options: { force: { type: 'boolean', description: 'Allow seeding when NODE_ENV=production' } },
  async run(config, values) {
    // Seeding rotates the demo partner's secret: never by accident on a production database.
    if (config.env === 'production' && !values.force) {
      throw new Error('Refusing to seed demo data with NODE_ENV=production (pass --force if you mean it)')
    }
    const credentials = await withRuntime(config, (deps) => seedDemoData(deps.database.db, config.publicBaseUrl))
    if (!config.databaseUrl) {
      writeFileSync(join(config.dataDir, 'credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
    }
    return { text: describeCredentials(credentials), json: credentials }
  },
}
