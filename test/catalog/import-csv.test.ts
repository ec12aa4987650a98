// Reading a products CSV: the command line's strict reader (readProductsCsv) and the back office's
// lenient one (parseProductsCsv, kept as it was so that the API answers the same). No database.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AppError } from '../../src/lib/errors.ts'
import { PRODUCT_CSV_COLUMNS, readProductsCsv, rejectsCsv, VARIANT_CSV_COLUMNS } from '../../src/modules/catalog/import.ts'

const HEADER = 'slug,name,brand,sku,categorySlug,sellingPrice,mrp'

function rejection(text: string): { message: string; details: string[] } {
  try {
    readProductsCsv(text)
  } catch (err) {
    assert.ok(err instanceof AppError, String(err))
    assert.equal(err.code, 'BAD_REQUEST')
    return { message: err.message, details: err.details ?? [] }
  }
  assert.fail('the CSV was accepted')
}

test('every column of the docs is read: numbers parsed, images split on |, isActive true or false', () => {
  const csv = `${PRODUCT_CSV_COLUMNS.join(',')}\natta-5kg,Atta 5 kg,Aashirvaad,A-1,staples,289.00,320,40,https://a.example/1.jpg | https://a.example/2.jpg,Whole wheat,5000,40,25,10,false,1101,500\n`
  const { products, lines } = readProductsCsv(csv)
  assert.deepEqual(products, [
    {
      slug: 'atta-5kg', name: 'Atta 5 kg', brand: 'Aashirvaad', sku: 'A-1', categorySlug: 'staples', sellingPrice: '289.00', mrp: '320', stock: 40,
      images: ['https://a.example/1.jpg', 'https://a.example/2.jpg'], description: 'Whole wheat', weightGrams: 5000, dimensionsCm: { length: 40, breadth: 25, height: 10 }, isActive: false,
      hsnCode: '1101', gstRateBps: 500,
    },
  ])
  assert.deepEqual(lines, [2])
})

test('the packed size is three cells: all empty keeps the product\'s; a missing or unreadable one is kept for validation to refuse', () => {
  const { products } = readProductsCsv(`${HEADER},lengthCm,breadthCm,heightCm\na,A,B,S1,c,1,1,,,\nb,B,B,S2,c,1,1,30,,5\nc,C,B,S3,c,1,1,30,20cm,5\n`)
  assert.deepEqual(
    products.map((p) => p.dimensionsCm),
    [undefined, { length: 30, breadth: null, height: 5 }, { length: 30, breadth: '20cm', height: 5 }],
  )
})

test('each product knows the line it starts on, past blank lines, quoted newlines, mixed line ends and a byte order mark', () => {
  const csv = `\uFEFF${HEADER},description\r\na,A,B,S1,c,1,1,"two\r\nlines"\r\n\r\nb,"B, with comma",B,S2,c,1,1,"say ""hi"""\nc,C,B,S3,c,1,1,\n`
  const { products, lines } = readProductsCsv(csv)
  assert.deepEqual(products.map((p) => [p.slug, p.name, p.description]), [['a', 'A', 'two\nlines'], ['b', 'B, with comma', 'say "hi"'], ['c', 'C', '']])
  assert.deepEqual(lines, [2, 5, 6])
})

test('an unknown column is refused, as JSON refuses an unknown field; a missing or repeated one too', () => {
  const unknown = rejection(`${HEADER},colour\na,A,B,S,c,1,1,red\n`)
  assert.equal(unknown.message, 'The CSV header is not valid; nothing was imported')
  assert.deepEqual(unknown.details, [`line 1: column colour should not exist (the columns are ${[...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS].join(', ')})`])
  assert.deepEqual(rejection('slug,name,brand,sku,categorySlug,sellingPrice,price\n').details, [
    `line 1: column price should not exist (the columns are ${[...PRODUCT_CSV_COLUMNS, ...VARIANT_CSV_COLUMNS].join(', ')})`,
    'line 1: column mrp is missing',
  ])
  assert.deepEqual(rejection(`${HEADER},sku\n`).details, ['line 1: column sku appears twice'])
})

test('a malformed row is refused with its line: a stray quote, an unclosed quote, too many cells', () => {
  const stray = rejection(`${HEADER}\na,A,B,S,c,1,1\nb,Aashirvaad "Select" Atta,B,S2,c,1,1\n`)
  assert.equal(stray.message, 'The CSV file is malformed; nothing was imported')
  assert.match(stray.details[0]!, /^line 3: Invalid Opening Quote/)
  assert.match(rejection(`${HEADER}\na,"A,B,S,c,1,1\n`).details[0]!, /^line 2: Quote Not Closed/)
  assert.match(rejection(`${HEADER}\na,A,B,S,c,1,1\nb,B,B,S2,c,1,1,extra\n`).details[0]!, /^line 3: Invalid Record Length/)
})

test('the brand column may be left out: every product has brand ""', () => {
  const { products } = readProductsCsv('slug,name,sku,categorySlug,sellingPrice,mrp\na,A,S1,c,1,1\n')
  assert.equal(products[0]!.brand, '')
})

test('a rejects file holds the header and the rows as the file had them, untrimmed and quoted where needed, with an error column', () => {
  const csv = readProductsCsv(`${HEADER}\n a ,"A, with comma",B,S1,c,1,1\nb,B,B,S2,c,1,1\nc,"say ""hi""",B,S3,c,1,1\n`)
  const rejects = rejectsCsv(csv, new Map([[0, ['name is required']], [2, ['sku is required', 'mrp is required']]]))
  assert.equal(rejects, `${HEADER},error\n a ,"A, with comma",B,S1,c,1,1,name is required\nc,"say ""hi""",B,S3,c,1,1,sku is required; mrp is required\n`)
})

test('a fixed rejects file imports as it is: its error column is read and ignored, and replaced when it is rejected again', () => {
  const csv = readProductsCsv(`${HEADER},error\na,A,B,S1,c,1,1,name is required\n`)
  assert.equal('error' in csv.products[0]!, false)
  assert.equal(rejectsCsv(csv, new Map([[0, ['bad price']]])), `${HEADER},error\na,A,B,S1,c,1,1,bad price\n`)
})

test('an empty file has no products', () => {
  const empty = readProductsCsv('')
  assert.deepEqual([empty.products, empty.lines, empty.header, empty.records], [[], [], [], []])
})
