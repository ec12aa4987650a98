// The customer's address book, /users/me/addresses (bearer token; x-partner-id optional). A flow:
// saving an address spans two modules. Its state must be one its pincode may be in, which checkout's
// serviceability data knows (`stateMismatch`: 400 naming both otherwise); the address itself is the
// customers module's. Steps: the fields trimmed and checked (customers), then for a change the
// address locked with its customer, the state and pincode as they will be checked (checkout), the
// address written (customers), all in one transaction.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Db, Executor } from '../db/client.ts'
import { Envelope, errorResponses, ok } from '../http/envelope.ts'
import { customerOf, type Guards } from '../http/guards.ts'
import { security } from '../http/schemas.ts'
import { AppError } from '../lib/errors.ts'
import { stateMismatch } from '../modules/checkout/index.ts'
import { Address, AddressBody, addressFields, type AddressInput, AddressListItem, AddressParams, type ProfileService } from '../modules/customers/index.ts'

/** An address's state must be one its pincode may be in (400 naming both otherwise). */
async function requireStateOfPincode(db: Executor, address: { state: string; pincode: string }) {
  const mismatch = await stateMismatch(db, address)
  if (mismatch) throw new AppError('BAD_REQUEST', 'Validation failed', [mismatch])
}

export class AddressBook {
  readonly #db: Db
  readonly #profiles: ProfileService

  constructor(db: Db, profiles: ProfileService) {
    this.#db = db
    this.#profiles = profiles
  }

  async create(userId: string, input: AddressInput) {
    const fields = addressFields(input)
    await requireStateOfPincode(this.#db, fields)
    return this.#profiles.createAddress(userId, fields)
  }

  async update(userId: string, addressId: string, input: Partial<AddressInput>) {
    const fields = addressFields(input)
    if (fields.state === undefined && fields.pincode === undefined) return this.#profiles.updateAddress(userId, addressId, fields)
    return this.#db.transaction(async (tx) => {
      const current = await this.#profiles.addressForUpdate(tx, userId, addressId)
      await requireStateOfPincode(tx, { state: fields.state ?? current.state, pincode: fields.pincode ?? current.pincode })
      return this.#profiles.updateAddress(userId, addressId, fields, tx)
    })
  }
}

export const addressBookRoutes: FastifyPluginAsyncTypebox<{ book: AddressBook; profiles: ProfileService; guards: Guards }> = async (
  app,
  { book, profiles, guards },
) => {
  const common = { preValidation: guards.customer }
  const tags = ['Customer profile']

  app.get(
    '/users/me/addresses',
    {
      ...common,
      schema: { operationId: 'listAddresses', tags, summary: 'Saved addresses, default first', security: security.customer, response: { 200: Envelope(Type.Array(AddressListItem)), ...errorResponses(401) } },
    },
    async (request) => ok(await profiles.listAddresses(customerOf(request).userId), 'Addresses retrieved'),
  )

  app.post(
    '/users/me/addresses',
    {
      ...common,
      schema: {
        operationId: 'createAddress',
        tags,
        summary: 'Save an address (the first one becomes the default)',
        security: security.customer,
        body: Type.Object({
          label: AddressBody.label,
          line1: AddressBody.line1,
          line2: Type.Optional(AddressBody.line2),
          city: AddressBody.city,
          state: AddressBody.state,
          pincode: AddressBody.pincode,
          isDefault: Type.Optional(AddressBody.isDefault),
        }),
        response: { 201: Envelope(Address), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      reply.status(201)
      return ok(await book.create(customerOf(request).userId, request.body), 'Address created', 201)
    },
  )

  app.patch(
    '/users/me/addresses/:addressId',
    {
      ...common,
      schema: {
        operationId: 'updateAddress',
        tags,
        summary: 'Change any subset of an address',
        security: security.customer,
        params: AddressParams,
        body: Type.Partial(Type.Object(AddressBody)),
        response: { 200: Envelope(Address), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await book.update(customerOf(request).userId, request.params.addressId, request.body), 'Address updated'),
  )

  app.delete(
    '/users/me/addresses/:addressId',
    {
      ...common,
      schema: {
        operationId: 'deleteAddress',
        tags,
        summary: 'Delete an address (a deleted default passes to the most recent remaining one)',
        security: security.customer,
        params: AddressParams,
        response: { 200: Envelope(Address), ...errorResponses(401, 404) },
      },
    },
    async (request) => ok(await profiles.deleteAddress(customerOf(request).userId, request.params.addressId), 'Address deleted'),
  )
}
