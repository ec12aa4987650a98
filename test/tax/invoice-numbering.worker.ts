// A separate process issuing tax invoices of one GSTIN's catalogs concurrently (alternating) (test/tax/invoice-numbering.test.ts):
// COUNT transactions over a pool of 4 connections. Invoices are numbered after their transaction
// commits, in batches (decision 0045); every third is numbered inside it instead (as a credit note's
// transaction numbers its order's invoices), and every fifth is numbered inside it and then rolled
// back. Prints the ids of the orders it committed as JSON on its last line, once their commits
// (and so their numbering) are over.
import { openDatabase } from '../../src/db/client.ts'
import { numberWaiting } from '../../src/modules/tax/documents.ts'
import { issueInvoices } from '../../src/modules/tax/index.ts'
import { schema } from '../helpers/schema-db.ts'

const { DATABASE_URL, CATALOG_IDS, COUNT, NAME } = process.env
const catalogIds = CATALOG_IDS!.split(',')
const database = await openDatabase({ databaseUrl: DATABASE_URL!, pgliteDir: null, poolSize: 4, schema })
const address = { name: 'Asha Rao', phone: '9876543210', line1: '12 MG Road', line2: '', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }
const committed: string[] = []
await Promise.all(
  Array.from({ length: Number(COUNT) }, async (_, i) => {
    const order = {
      id: `ord_${NAME}_${i}`,
      orderNumber: `CM-${NAME}-${i}`,
      partnerId: 'prt_numbering',
      placeOfSupplyStateCode: '29',
      placeOfSupplyState: 'Karnataka',
      shippingAddress: address,
      taxCharges: null,
      items: [{ id: `itm_${NAME}_${i}`, catalogId: catalogIds[i % catalogIds.length]!, position: 0, name: 'Atta', variantTitle: null, quantity: 1, unitPrice: 10500n, lineTotal: 10500n, couponDiscount: 0n, hsnCode: '1101', gstRateBps: 500, taxableValue: 10000n, cgst: 0n, sgst: 0n, igst: 500n }],
    }
    try {
      await database.db.transaction(async (tx) => {
        await issueInvoices(tx, order, new Date())
        if (i % 3 === 0 || i % 5 === 4) await numberWaiting(tx, order.id)
        if (i % 5 === 4) throw new Error('rolled back')
      })
      committed.push(order.id)
    } catch (error) {
      if ((error as Error).message !== 'rolled back') throw error
    }
  }),
)
await database.close()
console.log(JSON.stringify(committed))
