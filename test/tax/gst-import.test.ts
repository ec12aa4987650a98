// HSN codes and GST rates through the bulk import (issue #28, decision 0021): JSON fields and CSV
// columns `hsnCode` and `gstRateBps` on products and categories, through the back office and the
// command line. A rate must be one in force today (the tax module's data), an HSN code has its
// shape; a row that leaves them out keeps what the product or category has, null clears.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { main } from '../../src/cli/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenAdminToken } from '../helpers/factories.ts'

let t: TestApp
let token: string
let catalogId: string
const dir = mkdtempSync(join(tmpdir(), 'commerce-gst-import-'))

const call = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) })
const importJson = (body: object) => call('POST', `/catalogs/${catalogId}/import`, body)
const importCsv = (text: string) => call('POST', `/catalogs/${catalogId}/import`, text, { 'content-type': 'text/csv' })

/** The back office's view of a product by slug (its own GST fields, not inherited ones). */
async function productTax(slug: string) {
  const list = await call('GET', `/catalogs/${catalogId}/products?search=${encodeURIComponent(slug)}&limit=50`)
  assert.equal(list.statusCode, 200, list.body)
  const found = (list.json().data as { slug: string; hsnCode: string | null; gstRateBps: number | null }[]).find((p) => p.slug === slug)
  assert.ok(found, `${slug} is in the catalog`)
  return { hsnCode: found.hsnCode, gstRateBps: found.gstRateBps }
}

const row = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, name: `Item ${slug}`, brand: 'Acme', sku: slug.toUpperCase(), categorySlug: 'grocery', sellingPrice: '100', mrp: '100', ...extra })

before(async () => {
  t = await createTestApp()
  token = await givenAdminToken(t.app, t.deps, 'gst-import@example.com', 'ADMIN')
  catalogId = (await call('POST', '/catalogs', { name: 'GST import' })).json().data.id
})
after(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('GST fields in the bulk import', () => {
  test('JSON rows set a category default and a product\'s own HSN code and rate', async () => {
    const res = await importJson({
      categories: [{ slug: 'grocery', name: 'Grocery', hsnCode: '1101', gstRateBps: 500 }],
      products: [row('atta', { hsnCode: '11010000', gstRateBps: 500 }), row('soap', { hsnCode: '3401', gstRateBps: 1800 }), row('plain')],
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(await productTax('atta'), { hsnCode: '11010000', gstRateBps: 500 })
    assert.deepEqual(await productTax('soap'), { hsnCode: '3401', gstRateBps: 1800 })
    assert.deepEqual(await productTax('plain'), { hsnCode: null, gstRateBps: null }, 'its own fields stay empty: it inherits the category\'s')
    const categories = (await call('GET', `/catalogs/${catalogId}/categories`)).json().data as { slug: string; hsnCode: string | null; gstRateBps: number | null }[]
    const grocery = categories.find((c) => c.slug === 'grocery')
    assert.deepEqual([grocery?.hsnCode, grocery?.gstRateBps], ['1101', 500])
  })

  test('a row that leaves the GST fields out keeps them; null clears them', async () => {
    assert.equal((await importJson({ products: [row('soap', { name: 'Soap, renamed' })] })).statusCode, 200)
    assert.deepEqual(await productTax('soap'), { hsnCode: '3401', gstRateBps: 1800 }, 'left out: kept')
    assert.equal((await importJson({ products: [row('soap', { hsnCode: null, gstRateBps: null })] })).statusCode, 200)
    assert.deepEqual(await productTax('soap'), { hsnCode: null, gstRateBps: null }, 'null: cleared')
  })

  test('CSV columns hsnCode and gstRateBps; an empty cell keeps what the product has', async () => {
    const header = 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,hsnCode,gstRateBps'
    assert.equal((await importCsv(`${header}\nkettle,Kettle,Acme,KETTLE,grocery,900,900,8516,1800\n`)).statusCode, 200)
    assert.deepEqual(await productTax('kettle'), { hsnCode: '8516', gstRateBps: 1800 })
    assert.equal((await importCsv(`${header}\nkettle,Kettle,Acme,KETTLE,grocery,950,950,,\n`)).statusCode, 200)
    assert.deepEqual(await productTax('kettle'), { hsnCode: '8516', gstRateBps: 1800 }, 'empty cells: kept')
  })

  test('a bad HSN code, a rate out of range and a rate not in force today are problems naming the field and the row; nothing is written', async () => {
    const res = await importJson({
      products: [row('bad-hsn', { hsnCode: '12' }), row('huge-rate', { gstRateBps: 20_000 }), row('old-rate', { gstRateBps: 1200 }), row('fine', { gstRateBps: 4000 })],
    })
    assert.equal(res.statusCode, 400, res.body)
    const message = res.json().message as string[]
    assert.equal(message[0], 'products[0]: hsnCode must be an HSN code (4, 6 or 8 digits) or a SAC (6 digits starting 99), got "12"')
    assert.equal(message[1], 'products[1]: gstRateBps must be a whole number of basis points from 0 to 10000 (1800 = 18 %), got 20000')
    assert.match(message[2]!, /^products\[2\]: gstRateBps 1200 is not a GST rate in force today \(in force: .*\b500\b.*\b1800\b.*\)$/)
    assert.equal(message.length, 3, 'the rate in force (40 %) is fine')
    const names = ((await call('GET', `/catalogs/${catalogId}/products?limit=100`)).json().data as { slug: string }[]).map((p) => p.slug)
    assert.equal(names.includes('fine'), false, 'all or nothing')
  })

  test('the command line checks the rate against the rates in force too (a dry run lists it)', async () => {
    const path = join(dir, 'old-rate.csv')
    writeFileSync(path, 'slug,name,brand,sku,categorySlug,sellingPrice,mrp,gstRateBps\ncli-old,Old,Acme,CLI-OLD,grocery,10,10,1200\n')
    let stdout = ''
    const code = await main(['catalog', 'import', path, '--catalog', catalogId, '--dry-run'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => {}, isTTY: false },
      env: { DATA_DIR: dir, AUTH_SECRET: 'c'.repeat(40), PATH: process.env.PATH ?? '' },
      runtime: t.deps,
    })
    assert.equal(code, 1, stdout)
    assert.match(stdout, /line 2: gstRateBps 1200 is not a GST rate in force today/)
  })
})
