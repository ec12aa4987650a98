// The variant editor's rules (console/src/variant-grid.ts), apart from the browser: combinations,
// rows kept by their values, bulk edits, and the PUT body with the API's field names.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type AdminVariant, bulkEdit, cellsNamed, generate, gridBody, oneVariantChanged, rowsOf, rupees, titleOf, withOptionAdded, withOptionRemoved, withValueMovedEarlier, withValueRemoved } from '../../console/src/variant-grid.ts'

const variant = (id: string, options: { name: string; value: string }[], fields: Partial<AdminVariant> = {}): AdminVariant => ({
  id,
  title: options.map((o) => o.value).join(' / ') || null,
  options,
  sku: id.toUpperCase(),
  sellingPrice: '899.00',
  mrp: '999.00',
  stock: 5,
  weightGrams: null,
  dimensionsCm: null,
  barcode: null,
  hsnCode: null,
  gstRateBps: null,
  images: [],
  isActive: true,
  ...fields,
})
const SIZE = { name: 'Size', values: ['S', 'M'] }
const COLOUR = { name: 'Colour', values: ['Red', 'Blue'] }

describe('variant grid', () => {
  test('amounts stay text: "899" is "899.00", "899.5" is "899.50", a float-looking or signed value is refused', () => {
    assert.equal(rupees('899'), '899.00')
    assert.equal(rupees(' 899.5 '), '899.50')
    assert.equal(rupees('007.25'), '7.25')
    for (const bad of ['8.999', '-1', '1e3', '', '12,00']) assert.equal(rupees(bad), null, bad)
  })

  test("when options are added to a product without them, its own fields become the first combination's variant, keeping the default variant's id", () => {
    const start = withOptionAdded([], rowsOf([], [variant('var_p1', [], { sku: 'KURTA', stock: 7 })]))
    const options = [{ ...start.options[0]!, name: 'Size', values: ['S', 'M', 'L'] }]
    const made = generate(options, start.rows, 'cotton-kurta')
    assert.ok('rows' in made)
    assert.deepEqual(made.rows.map((r) => [r.id, titleOf(options, r), r.sku, r.stock, r.sellingPrice]), [
      ['var_p1', 'S', 'KURTA', '7', '899.00'],
      [undefined, 'M', 'COTTON-KURTA-M', '0', '899.00'],
      [undefined, 'L', 'COTTON-KURTA-L', '0', '899.00'],
    ])
    assert.deepEqual([made.added, made.removed], [2, 0])
  })

  test('generating again keeps the rows whose combination exists; an added option fills its first value into them; a removed value removes its rows', () => {
    const rows = rowsOf([SIZE], [variant('v-s', [{ name: 'Size', value: 'S' }], { stock: 3 }), variant('v-m', [{ name: 'Size', value: 'M' }], { stock: 4 })])
    const added = withOptionAdded([SIZE], rows)
    const options = [SIZE, { name: 'Colour', values: ['Red', 'Blue'] }]
    const made = generate(options, added.rows, 'kurta')
    assert.ok('rows' in made)
    assert.deepEqual(made.rows.map((r) => [r.id, titleOf(options, r), r.stock]), [
      ['v-s', 'S / Red', '3'],
      [undefined, 'S / Blue', '0'],
      ['v-m', 'M / Red', '4'],
      [undefined, 'M / Blue', '0'],
    ])
    const fewer = withValueRemoved(options, made.rows, 1, 0)
    assert.deepEqual(fewer.rows.map((r) => titleOf(fewer.options, r)), ['S / Blue', 'M / Blue'])
    assert.equal(fewer.removed, 2)
    const moved = withValueMovedEarlier(options, made.rows, 0, 1)
    assert.deepEqual(moved.options[0]!.values, ['M', 'S'])
    assert.deepEqual(moved.rows.map((r) => titleOf(moved.options, r)), ['S / Red', 'S / Blue', 'M / Red', 'M / Blue'], 'rows keep their values when a value moves')
    const one = withOptionRemoved(options, made.rows, 1)
    assert.deepEqual(one.rows.map((r) => [r.id, titleOf(one.options, r)]), [['v-s', 'S'], ['v-m', 'M']])
  })

  test('more than 250 combinations, or an option without values, is refused before anything changes', () => {
    const big = [{ name: 'A', values: Array.from({ length: 16 }, (_, i) => `a${i}`) }, { name: 'B', values: Array.from({ length: 16 }, (_, i) => `b${i}`) }]
    assert.deepEqual(generate(big, [], 'x'), { problem: '256 combinations: a product has at most 250 variants' })
    assert.match(String((generate([SIZE, { name: 'Colour', values: [] }], [], 'x') as { problem: string }).problem), /options\[1\] \(Colour\) has no values/)
  })

  test('bulk edit sets the price of the selected rows, adds to and takes from their stock, and refuses stock below zero or an amount that is not one', () => {
    const rows = rowsOf([SIZE], [variant('v-s', [{ name: 'Size', value: 'S' }], { stock: 3 }), variant('v-m', [{ name: 'Size', value: 'M' }], { stock: 4 })]).map((r, i) => ({ ...r, selected: i === 0 }))
    const priced = bulkEdit([SIZE], rows, 'sellingPrice', 'set', '749.5')
    assert.ok('rows' in priced)
    assert.deepEqual(priced.rows.map((r) => r.sellingPrice), ['749.50', '899.00'])
    const more = bulkEdit([SIZE], rows, 'stock', 'add', '10')
    assert.ok('rows' in more)
    assert.deepEqual(more.rows.map((r) => r.stock), ['13', '4'])
    assert.deepEqual(bulkEdit([SIZE], rows, 'stock', 'subtract', '4'), { problem: 'The stock of S would go below zero (it is 3)' })
    assert.deepEqual(bulkEdit([SIZE], rows, 'mrp', 'set', '99.999'), { problem: 'MRP: an amount like 1299.00' })
    assert.deepEqual(bulkEdit([SIZE], rows, 'mrp', 'add', '1'), { problem: 'Prices and MRPs are set to a value, not added to' })
  })

  test("the PUT body names each problem as the API does (variants[1].sellingPrice); a grid whose only change is one stored variant's goes as that variant's PATCH", () => {
    const options = [SIZE, COLOUR]
    const variants = [variant('v1', [{ name: 'Size', value: 'S' }, { name: 'Colour', value: 'Red' }]), variant('v2', [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Blue' }])]
    const rows = rowsOf(options, variants)
    const bad = gridBody(options, rows.map((r, i) => (i === 1 ? { ...r, sellingPrice: '8.999', stock: '-1' } : r)))
    assert.deepEqual(bad, { problems: ['variants[1].sellingPrice must be an amount like 1299.00', 'variants[1].stock must be a whole number of units'] })
    assert.deepEqual([...cellsNamed('variants[1].sellingPrice must be …\nvariants[0].sku S is taken')], ['1.sellingPrice', '0.sku'])
    const loaded = gridBody(options, rows)
    const edited = gridBody(options, rows.map((r, i) => (i === 1 ? { ...r, stock: '9', barcode: '' } : r)))
    assert.ok('body' in loaded && 'body' in edited)
    assert.deepEqual(edited.body.variants[1], { id: 'v2', options: [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Blue' }], sku: 'V2', sellingPrice: '899.00', mrp: '999.00', stock: 9, weightGrams: null, barcode: null, isActive: true, dimensionsCm: null, hsnCode: null, gstRateBps: null, images: [] })
    assert.deepEqual(oneVariantChanged(loaded.body, edited.body), { id: 'v2', changes: { stock: 9 } })
    const two = gridBody(options, rows.map((r) => ({ ...r, stock: '9' })))
    assert.ok('body' in two)
    assert.equal(oneVariantChanged(loaded.body, two.body), null, 'two variants changed: the whole grid')
  })
})
