// Support tickets: the customer's side and the back office's. Every status change writes its
// `ticket.status_changed` event in the same transaction.
//
//   OPEN -> IN_PROGRESS -> RESOLVED -> CLOSED;  RESOLVED -> OPEN when the customer replies.
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { backOfficeScope, inScope, type ListScope } from '../../lib/scope.ts'

const ALL_PARTNERS = backOfficeScope(undefined)

/** Who answers a ticket: a back-office user (every partner's tickets) or a partner's own support (its own). */
export interface Agent {
  /** Recorded in the ticket's history: `ADMIN:<id>` or `PARTNER:<id>`. */
  actor: string
  /** Stored as the message's author id. */
  id: string
  scope: ListScope
}
export const adminAgent = (adminId: string): Agent => ({ actor: `ADMIN:${adminId}`, id: adminId, scope: ALL_PARTNERS })
export const partnerAgent = (scope: ListScope & { kind: 'partner' }): Agent => ({ actor: `PARTNER:${scope.partnerId}`, id: scope.partnerId, scope })
import type { Db, Executor } from '../../db/client.ts'
import { recordEvent } from '../events/index.ts'
import { findOwnOrder, orderRefs } from '../orders/index.ts'
import { checkImageUrls } from '../uploads/index.ts'
import type { SlotRequest, Storage, UploadService } from '../uploads/index.ts'
import { type TicketFilter, type MessageRow, ticketRepo, type TicketRow } from './repo.ts'
import type { TicketStatus, ticketMessages } from './schema.sql.ts'

/** Moves the back office may make. RESOLVED -> OPEN happens only by the customer's reply. */
export const TICKET_MOVES: Record<TicketStatus, TicketStatus[]> = {
  OPEN: ['IN_PROGRESS'],
  IN_PROGRESS: ['RESOLVED'],
  RESOLVED: ['CLOSED'],
  CLOSED: [],
}

export interface CustomerRef {
  userId: string
  partnerId: string
}

const messageView = (m: MessageRow) => ({ id: m.id, ticketId: m.ticketId, author: m.author, body: m.body, imageUrls: m.imageUrls, createdAt: m.createdAt.toISOString() })

export class SupportService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  readonly #storage: Storage
  readonly #uploadSlots: UploadService['issueSlots']
  constructor(
    { database, clock }: ServiceDeps,
    storage: Storage,
    /** The uploads module's slots: an agent's images are issued for the ticket's customer. */
    uploadSlots: UploadService['issueSlots'],
  ) {
    this.#storage = storage
    this.#uploadSlots = uploadSlots
    this.#db = database.db
    this.#clock = clock
  }

  async #view(row: TicketRow) {
    return (await this.#views([row]))[0]!
  }

  async #views(rows: TicketRow[], executor: Executor = this.#db) {
    const refs = await orderRefs(executor, [...new Set(rows.flatMap((r) => (r.orderId ? [r.orderId] : [])))])
    return rows.map((t) => ({
      id: t.id,
      partnerId: t.partnerId,
      orderId: t.orderId,
      topic: t.topic,
      detail: t.detail,
      imageUrls: t.imageUrls,
      status: t.status,
      order: t.orderId ? (refs.get(t.orderId) ?? null) : null,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    }))
  }

  async #ownTicket(customer: CustomerRef, ticketId: string) {
    const ticket = await ticketRepo.find(this.#db, ticketId)
    if (!ticket || ticket.userId !== customer.userId || ticket.partnerId !== customer.partnerId) throw notFound('Ticket')
    return ticket
  }

  // Ticket events carry the ticket (or the message) as the API answers it, written in the change's transaction.
  async #move(tx: Executor, ticket: TicketRow, to: TicketStatus, by: string, at: Date) {
    const updated = await ticketRepo.update(tx, ticket.id, { status: to, updatedAt: at })
    const [shown] = await this.#views([updated], tx)
    await recordEvent(tx, { partnerId: ticket.partnerId, type: 'ticket.status_changed', subjectId: ticket.id, data: { ticketId: ticket.id, orderId: ticket.orderId, from: ticket.status, status: to, by, ticket: shown }, at })
    return updated
  }

  async #addMessage(tx: Executor, ticket: TicketRow, row: typeof ticketMessages.$inferInsert) {
    const message = messageView(await ticketRepo.addMessage(tx, row))
    await recordEvent(tx, { partnerId: ticket.partnerId, type: 'ticket.message.created', subjectId: ticket.id, data: { ticketId: ticket.id, orderId: ticket.orderId, message }, at: row.createdAt })
    return message
  }

  async create(customer: CustomerRef, input: { topic: string; detail: string; orderId?: string; imageUrls?: string[] }) {
    const now = this.#clock.now()
    if (input.orderId && !(await findOwnOrder(this.#db, customer, input.orderId))) throw notFound('Order')
    const imageUrls = await checkImageUrls(this.#db, this.#storage, customer, 'support', input.imageUrls ?? [], now)
    const ticket = await this.#db.transaction(async (tx) => {
      const created = await ticketRepo.insert(tx, {
        id: newId('tkt', now.getTime()),
        partnerId: customer.partnerId,
        userId: customer.userId,
        orderId: input.orderId ?? null,
        topic: input.topic.trim(),
        detail: input.detail.trim(),
        imageUrls,
        status: 'OPEN',
        createdAt: now,
        updatedAt: now,
      })
      const [shown] = await this.#views([created], tx)
      await recordEvent(tx, { partnerId: customer.partnerId, type: 'ticket.created', subjectId: created.id, data: { ticketId: created.id, orderId: created.orderId, ticket: shown }, at: now })
      return created
    })
    return this.#view(ticket)
  }

  async list(scope: ListScope, filter: TicketFilter, query: { page: number; limit: number }) {
    const result = await ticketRepo.page(this.#db, scope, filter, query.page, query.limit)
    return { data: await this.#views(result.rows), meta: pageMeta(result.total, query) }
  }

  async get(customer: CustomerRef, ticketId: string) {
    return this.#view(await this.#ownTicket(customer, ticketId))
  }

  async messages(customer: CustomerRef | null, ticketId: string) {
    const ticket = customer ? await this.#ownTicket(customer, ticketId) : await ticketRepo.find(this.#db, ticketId)
    if (!ticket) throw notFound('Ticket')
    return (await ticketRepo.messages(this.#db, ticket.id)).map(messageView)
  }

  /** A customer's message; on a RESOLVED ticket it reopens it. A CLOSED ticket takes no more. */
  async customerReply(customer: CustomerRef, ticketId: string, input: { body: string; imageUrls?: string[] }) {
    await this.#ownTicket(customer, ticketId)
    const now = this.#clock.now()
    const imageUrls = await checkImageUrls(this.#db, this.#storage, customer, 'support', input.imageUrls ?? [], now)
    return this.#db.transaction(async (tx) => {
      const ticket = (await ticketRepo.lock(tx, ticketId))!
      if (ticket.status === 'CLOSED') throw new AppError('CONFLICT', 'This ticket is closed; open a new ticket')
      if (ticket.status === 'RESOLVED') await this.#move(tx, ticket, 'OPEN', 'CUSTOMER', now)
      else await ticketRepo.update(tx, ticket.id, { updatedAt: now })
      return this.#addMessage(tx, ticket, { id: newId('msg', now.getTime()), ticketId, author: 'CUSTOMER', authorId: customer.userId, body: input.body.trim(), imageUrls, createdAt: now })
    })
  }

  /** One ticket with its conversation, for the back office or the partner's own server (its scope). */
  async adminView(ticketId: string, scope: ListScope = ALL_PARTNERS) {
    const ticket = await ticketRepo.find(this.#db, ticketId)
    if (!ticket || !inScope(scope, ticket)) throw notFound('Ticket')
    return { ...(await this.#view(ticket)), userId: ticket.userId, messages: (await ticketRepo.messages(this.#db, ticketId)).map(messageView) }
  }

  /** An agent's ticket, in their scope; CLOSED refused (`closed`: the message). */
  async #agentTicket(agent: Agent, ticketId: string, executor: Executor = this.#db, lock = false) {
    const ticket = lock ? await ticketRepo.lock(executor, ticketId) : await ticketRepo.find(executor, ticketId)
    if (!ticket || !inScope(agent.scope, ticket)) throw notFound('Ticket')
    if (ticket.status === 'CLOSED') throw new AppError('CONFLICT', 'This ticket is closed')
    return ticket
  }

  /**
   * Upload slots for an agent's images (issue #39): issued for the ticket's customer, as support
   * uploads, so that the reply may cite them and the customer's app may show them like their own.
   */
  async agentUploadSlots(agent: Agent, ticketId: string, files: SlotRequest[]) {
    const ticket = await this.#agentTicket(agent, ticketId)
    return this.#uploadSlots({ userId: ticket.userId, partnerId: ticket.partnerId }, 'support', files)
  }

  /** An agent's reply (the back office's or the partner's support), with images uploaded for the ticket; an OPEN ticket moves to IN_PROGRESS with it. */
  async agentReply(agent: Agent, ticketId: string, input: { body: string; imageUrls?: string[] | undefined }) {
    const now = this.#clock.now()
    const found = await this.#agentTicket(agent, ticketId)
    const imageUrls = await checkImageUrls(this.#db, this.#storage, { userId: found.userId, partnerId: found.partnerId }, 'support', input.imageUrls ?? [], now)
    return this.#db.transaction(async (tx) => {
      const ticket = await this.#agentTicket(agent, ticketId, tx, true)
      if (ticket.status === 'OPEN') await this.#move(tx, ticket, 'IN_PROGRESS', agent.actor, now)
      else await ticketRepo.update(tx, ticket.id, { updatedAt: now })
      return this.#addMessage(tx, ticket, { id: newId('msg', now.getTime()), ticketId, author: 'AGENT', authorId: agent.id, body: input.body.trim(), imageUrls, createdAt: now })
    })
  }

  async setStatus(agent: Agent, ticketId: string, to: TicketStatus) {
    const now = this.#clock.now()
    const ticket = await this.#db.transaction(async (tx) => {
      const current = await ticketRepo.lock(tx, ticketId)
      if (!current || !inScope(agent.scope, current)) throw notFound('Ticket')
      if (!TICKET_MOVES[current.status].includes(to)) throw new AppError('CONFLICT', `Ticket cannot move from ${current.status} to ${to}`)
      return this.#move(tx, current, to, agent.actor, now)
    })
    return this.#view(ticket)
  }
}

