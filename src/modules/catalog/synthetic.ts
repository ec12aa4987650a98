// A synthetic but realistic catalog of any size for benchmarks: the demo catalog's category tree
// with a third level under each leaf (about 230 categories), and products combining real Indian
// brands, product kinds and variants, with plausible prices.
import { readFileSync } from 'node:fs'
import { projectFile } from '../../lib/paths.ts'
import type { CatalogImport, CategoryImportRow, ProductImportRow } from './import.ts'
import { seededRandom as random } from '../../lib/random.ts'

interface Demo {
  categories: CategoryImportRow[]
  products: ProductImportRow[]
}

const VARIANTS = ['Classic', 'Pro', 'Lite', 'Max', 'Plus', 'Neo', 'Prime', 'Ultra', 'Smart', 'Eco', 'Royal', 'Fresh', 'Active', 'Premium', 'Select']
const SIZES = ['Small', 'Medium', 'Large', '250 g', '500 g', '1 kg', '2 kg', '5 kg', '1 L', '128GB', '256GB', 'Pack of 2', 'Pack of 4', 'Free Size', 'XL']
/** Third-level categories made under each leaf of the demo tree. */
const TIERS = ['Everyday', 'Premium', 'Value']
const COLOURS = ['Black', 'White', 'Blue', 'Red', 'Green', 'Maroon', 'Mustard', 'Teal', 'Grey', 'Beige', 'Navy', 'Pink']

export function syntheticCatalog(count: number): CatalogImport {
  const demo = JSON.parse(readFileSync(projectFile('src/modules/catalog/demo/catalog.json'), 'utf8')) as Demo
  const rand = random(count)
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!
  const parents = new Set(demo.categories.map((c) => c.parentSlug).filter(Boolean))
  const leaves = demo.categories.filter((c) => !parents.has(c.slug))
  const tiers = new Map(leaves.map((leaf) => [leaf.slug, TIERS.map((tier) => `${leaf.slug}-${tier.toLowerCase()}`)]))
  const categories: CategoryImportRow[] = [
    ...demo.categories,
    ...leaves.flatMap((leaf) => TIERS.map((tier, i) => ({ slug: `${leaf.slug}-${tier.toLowerCase()}`, name: `${leaf.name} ${tier}`, parentSlug: leaf.slug, image: leaf.image, position: i + 1 }))),
  ]
  const products: ProductImportRow[] = []
  for (let i = 0; i < count; i++) {
    const base = demo.products[i % demo.products.length]!
    const variant = pick(VARIANTS)
    const size = pick(SIZES)
    const colour = pick(COLOURS)
    const mrp = Math.max(10, Math.round(Number(base.mrp) * (0.6 + rand() * 0.8)))
    const selling = Math.max(1, Math.round(mrp * (0.5 + rand() * 0.5)))
    products.push({
      slug: `${base.slug}-${variant.toLowerCase()}-${i}`,
      name: `${base.name.replace(/\s*\(.*\)$/, '')} ${variant} ${colour} ${size}`,
      brand: base.brand,
      sku: `SYN-${i.toString(36).toUpperCase()}`,
      categorySlug: tiers.has(base.categorySlug) ? pick(tiers.get(base.categorySlug)!) : base.categorySlug,
      sellingPrice: `${selling}.00`,
      mrp: `${mrp}.00`,
      stock: Math.floor(rand() * 500),
      images: [`https://cdn.example.com/catalog/products/${base.slug}-${i % 7}.jpg`],
      description: base.description ?? '',
      weightGrams: base.weightGrams ?? 500,
    })
  }
  return { categories, products }
}
