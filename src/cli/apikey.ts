import { announceRevocations, createApiKey, PartnerAdminService, findPartner, revokeApiKey } from '../modules/partners/index.ts'
import { findDefaultCatalog } from '../modules/catalog/index.ts'
import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const apikeyCreate: Command = {
  summary: 'Issue a new API key for a partner (shown once)',
  options: {
    partner: { type: 'string', required: true, description: 'Partner ID' },
    catalog: { type: 'string', description: 'Catalog ID the key reads (default: the main catalog)' },
    name: { type: 'string', description: 'A label to tell keys apart' },
  },
  async run(config, values) {
    const key = await withRuntime(config, async (deps) => {
      const db = deps.database.db
      if (!(await findPartner(db, String(values.partner)))) throw new AppError('NOT_FOUND', 'Partner not found')
      const catalogId = (values.catalog as string | undefined) ?? (await findDefaultCatalog(db))?.id
      if (!catalogId) throw new AppError('NOT_FOUND', 'No catalog exists yet')
      return createApiKey(db, String(values.partner), catalogId, (values.name as string | undefined) ?? 'default')
    })
    return { text: `API key ${key.id} for catalog ${key.catalogId}:\n  ${key.apiKey}`, json: key }
  },
}

export const apikeyRevoke: Command = {
  summary: 'Revoke an API key: its requests are refused at once',
  options: { id: { type: 'string', required: true, description: 'API key ID (key_…)' } },
  async run(config, values) {
    await withRuntime(config, async (deps) => {
      await revokeApiKey(deps.database.db, deps.clock, String(values.id))
      await announceRevocations(deps.redis, deps.config.redisPrefix, [String(values.id)])
    })
    return { text: `API key ${values.id} revoked.`, json: { id: values.id, revoked: true } }
  },
}

export const apikeyList: Command = {
  summary: "A partner's API keys, newest first, revoked ones too (never the keys themselves)",
  options: { partner: { type: 'string', required: true, description: 'Partner ID' } },
  async run(config, values) {
    const keys = await withRuntime(config, (deps) => new PartnerAdminService(deps).keys(String(values.partner)))
    const lines = keys.map((k) => `${k.id}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  catalog ${k.catalogId}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}`)
    return { text: lines.length ? lines.join('\n') : 'No API keys.', json: keys }
  },
}
