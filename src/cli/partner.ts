import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'
import { requireCatalog, requirePartner } from './lookups.ts'

const partners = () => import('../modules/partners/index.ts')

export const partnerCreate: Command = {
  summary: 'Create a partner; prints its ID, secret and first API key (shown once)',
  options: {
    name: { type: 'string', required: true, description: 'Partner name' },
    catalog: { type: 'string', description: 'Catalog ID its key reads (default: the main catalog)' },
    'return-origins': { type: 'string', description: 'Comma-separated origins allowed in paymentReturnUrl (default: any)' },
  },
  async run(config, values, _positionals, context) {
    const { createPartner, setPartnerReturnOrigins } = await partners()
    const created = await withRuntime(config, context, async (deps) => {
      if (values.catalog !== undefined) await requireCatalog(deps.database.db, String(values.catalog))
      const partner = await createPartner(deps.database.db, { name: String(values.name), catalogId: values.catalog as string | undefined })
      if (values['return-origins']) await setPartnerReturnOrigins(deps.database.db, partner.partner.id, splitList(values['return-origins']))
      return partner
    })
    const json = { partner: { id: created.partner.id, name: created.partner.name, secret: created.secret }, apiKey: created.apiKey, apiKeyId: created.apiKeyId, catalogId: created.catalogId }
    const text = [
      `Partner ${created.partner.name} created.`,
      `  Partner ID (x-partner-id): ${created.partner.id}`,
      `  Partner secret:            ${created.secret}`,
      `  API key (x-api-key):       ${created.apiKey}   (id ${created.apiKeyId}, catalog ${created.catalogId})`,
      'Store the secret and the key now: they are not shown again.',
    ].join('\n')
    return { text, json }
  },
}

const splitList = (value: unknown) =>
  String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export const partnerReturnOrigins: Command = {
  summary: "Set the origins a partner's paymentReturnUrl may use (empty: any absolute URL)",
  options: {
    partner: { type: 'string', required: true, description: 'Partner ID' },
    origins: { type: 'string', required: true, description: 'Comma-separated origins, for example https://shop.example' },
  },
  async run(config, values, _positionals, context) {
    const { setPartnerReturnOrigins } = await partners()
    const origins = await withRuntime(config, context, async (deps) => {
      await requirePartner(deps.database.db, String(values.partner))
      return setPartnerReturnOrigins(deps.database.db, String(values.partner), splitList(values.origins))
    })
    return { text: `Return origins of ${String(values.partner)}: ${origins.join(', ') || 'any'}`, json: { partnerId: values.partner, origins } }
  },
}

const page = (value: unknown, fallback: number, max: number) => {
  const n = value === undefined ? fallback : Number(value)
  if (!Number.isInteger(n) || n < 1 || n > max) throw new AppError('BAD_REQUEST', `must be a whole number from 1 to ${max}, got ${String(value)}`)
  return n
}

export const partnerList: Command = {
  summary: 'List partners, newest first (the back office list: search by name or ID)',
  options: {
    search: { type: 'string', description: 'Part of the name, or the partner ID' },
    inactive: { type: 'boolean', description: 'Only deactivated partners' },
    page: { type: 'string', description: 'Page (default 1)' },
    limit: { type: 'string', description: 'Partners a page, 1-100 (default 20)' },
  },
  async run(config, values, _positionals, context) {
    const { PartnerAdminService } = await partners()
    const result = await withRuntime(config, context, (deps) =>
      new PartnerAdminService(deps).list(
        { search: values.search as string | undefined, isActive: values.inactive ? false : undefined },
        { page: page(values.page, 1, 100_000), limit: page(values.limit, 20, 100) },
      ),
    )
    const lines = result.data.map((p) => `${p.id}  ${p.isActive ? 'active  ' : 'inactive'}  ${p.activeApiKeys} key(s)  ${p.name}`)
    const { page: at, totalPages, total } = result.meta
    return { text: [...lines, `Page ${at} of ${Math.max(totalPages, 1)} (${total} partner(s))`].join('\n'), json: result }
  },
}

export const partnerRotateSecret: Command = {
  summary: 'Issue a new partner secret (shown once); the old one works until the overlap ends (PARTNER_SECRET_OVERLAP_SECONDS)',
  options: { partner: { type: 'string', required: true, description: 'Partner ID' } },
  async run(config, values, _positionals, context) {
    const { PartnerAdminService } = await partners()
    const rotated = await withRuntime(config, context, async (deps) => {
      await requirePartner(deps.database.db, String(values.partner))
      return new PartnerAdminService(deps).rotateSecret(String(values.partner))
    })
    const until = rotated.previousSecretExpiresAt ? `The previous secret works until ${rotated.previousSecretExpiresAt}.` : 'The previous secret no longer works.'
    return { text: [`New secret of ${rotated.partnerId}: ${rotated.secret}`, until, 'Store the secret now: it is not shown again.'].join('\n'), json: rotated }
  },
}

export const partnerDeactivate: Command = {
  summary: "Deactivate a partner: its API keys, secret and customer tokens stop working",
  options: { partner: { type: 'string', required: true, description: 'Partner ID' } },
  async run(config, values, _positionals, context) {
    const { PartnerAdminService } = await partners()
    const partner = await withRuntime(config, context, async (deps) => {
      await requirePartner(deps.database.db, String(values.partner))
      return new PartnerAdminService(deps).update(String(values.partner), { isActive: false })
    })
    return { text: `Partner ${partner.id} (${partner.name}) deactivated.`, json: partner }
  },
}
