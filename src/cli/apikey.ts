import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'
import { catalogOrDefault, requirePartner } from './lookups.ts'

export const apikeyCreate: Command = {
  summary: 'Issue a new API key for a partner (shown once)',
  options: {
    partner: { type: 'string', required: true, description: 'Partner ID' },
    catalog: { type: 'string', description: 'Catalog ID the key reads (default: the main catalog)' },
    name: { type: 'string', description: 'A label to tell keys apart' },
  },
  async run(config, values, _positionals, context) {
    const { createApiKey } = await import('../modules/partners/index.ts')
    const key = await withRuntime(config, context, async (deps) => {
      const db = deps.database.db
      await requirePartner(db, String(values.partner))
      const catalogId = await catalogOrDefault(db, values.catalog as string | undefined)
      return createApiKey(db, String(values.partner), catalogId, (values.name as string | undefined) ?? 'default')
    })
    return { text: `API key ${key.id} for catalog ${key.catalogId}:\n  ${key.apiKey}`, json: key }
  },
}

export const apikeyRevoke: Command = {
  summary: 'Revoke an API key: its requests are refused at once',
  options: { id: { type: 'string', required: true, description: 'API key ID (key_…)' } },
  async run(config, values, _positionals, context) {
    const { announceRevocations, revokeApiKey } = await import('../modules/partners/index.ts')
    const id = String(values.id)
    await withRuntime(config, context, async (deps) => {
      try {
        await revokeApiKey(deps.database.db, deps.clock, id)
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', `API key ${id} not found`)
        throw err
      }
      await announceRevocations(deps.redis, deps.config.redisPrefix, [id])
    })
    return { text: `API key ${id} revoked.`, json: { id, revoked: true } }
  },
}

export const apikeyList: Command = {
  summary: "A partner's API keys, newest first, revoked ones too (never the keys themselves)",
  options: { partner: { type: 'string', required: true, description: 'Partner ID' } },
  async run(config, values, _positionals, context) {
    const { PartnerAdminService } = await import('../modules/partners/index.ts')
    const keys = await withRuntime(config, context, async (deps) => {
      await requirePartner(deps.database.db, String(values.partner))
      return (await new PartnerAdminService(deps).keys(String(values.partner), {})).data
    })
    const lines = keys.map((k) => `${k.id}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  catalog ${k.catalogId}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}`)
    return { text: lines.length ? lines.join('\n') : 'No API keys.', json: keys }
  },
}
