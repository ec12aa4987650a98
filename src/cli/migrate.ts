import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const migrate: Command = {
  summary: 'Apply the database migrations (the server also does this at start)',
  options: {},
  async run(config) {
    await withRuntime(config, async () => undefined)
    return { text: 'Database is up to date.', json: { migrated: true } }
  },
}
