// A realistic, messy catalog of Indian marketplace products and a judged query set over it, for
// `npm run search:eval` (issue #23). Not the demo catalog: names are built the way marketplace
// sellers write them (brand first or missing, audience, material, type, colour, size, pack counts,
// model numbers such as `05712LMLY` or `SM-A155F`, long keyword-stuffed names of 190-200
// characters, the same name sold by several sellers) and about 29% of products have no brand.
// Deterministic: the same count and seed make the same catalog and the same queries.
//
// Query classes, each judged from how the catalog was generated (grade 3: the product asked for,
// 2: a right answer, 1: related):
//   known-item  the full name of one product, as pasted           that product (and same-named ones) 3
//   first-3     the first three words of a product's name         that product 3, names starting so 2
//   typo        a distinctive name part with one misspelt word    that product 3, same model/type 2
//   brand       a brand                                            its products 2
//   type        a product type ("pressure cooker", "kurti")        products of that type 2
//   model       a model number, in any case                        products of that model 3
//   hinglish    a type in Hinglish ("ladies chappal", "bachon ke liye school bag")  that type (and audience) 2
//   variant     a colour, a clothing or footwear type and a size ("maroon kurta xl")    that type with an
//               active variant of that colour and size, or so named, 2; that type 1 (decision 0043)
// A third of clothing and footwear products have options (Size x Colour, a tenth of the variants
// inactive), made with a random stream of their own after everything else, so the other classes'
// products and queries are what they were before variants.
import type { CatalogImport, CategoryImportRow, ProductImportRow } from '../src/modules/catalog/index.ts'
import { seededRandom as random } from '../src/lib/random.ts'

export interface Judgment {
  query: string
  kind: string
  relevant: Record<string, number>
}

interface Kind {
  type: string
  category: string
  audiences: string[]
  materials: string[]
  extras: string[]
  /** Model numbers: the share of products of this kind that carry one. */
  model: number
  /** Hinglish names of the type, and how the audience is said. */
  hinglish?: string[]
}

const CATEGORIES: CategoryImportRow[] = [
  { slug: 'fashion', name: 'Fashion' },
  { slug: 'clothing', name: 'Clothing', parentSlug: 'fashion' },
  { slug: 'footwear', name: 'Footwear', parentSlug: 'fashion' },
  { slug: 'jewellery', name: 'Jewellery', parentSlug: 'fashion' },
  { slug: 'watches', name: 'Watches', parentSlug: 'fashion' },
  { slug: 'bags', name: 'Bags and Luggage', parentSlug: 'fashion' },
  { slug: 'electronics', name: 'Electronics' },
  { slug: 'mobile-accessories', name: 'Mobile Accessories', parentSlug: 'electronics' },
  { slug: 'audio', name: 'Audio', parentSlug: 'electronics' },
  { slug: 'home-kitchen', name: 'Home and Kitchen' },
  { slug: 'cookware', name: 'Cookware', parentSlug: 'home-kitchen' },
  { slug: 'appliances', name: 'Kitchen Appliances', parentSlug: 'home-kitchen' },
  { slug: 'home-decor', name: 'Home Decor', parentSlug: 'home-kitchen' },
  { slug: 'beauty', name: 'Beauty and Personal Care' },
  { slug: 'toys', name: 'Toys and Baby' },
  { slug: 'stationery', name: 'Office and Stationery' },
]

const CLOTH = ['Cotton', 'Rayon', 'Polyester', 'Georgette', 'Silk Blend', 'Linen', 'Chanderi', 'Denim', 'Crepe']
const KINDS: Kind[] = [
  { type: 'Kurta', category: 'clothing', audiences: ["Men's", "Women's"], materials: CLOTH, extras: ['Printed', 'Straight', 'Embroidered', 'Regular Fit', 'Festive'], model: 0.1, hinglish: ['kurta'] },
  { type: 'Kurti', category: 'clothing', audiences: ["Women's", 'Girls'], materials: CLOTH, extras: ['A-Line', 'Anarkali', 'Printed', 'Straight', 'Flared'], model: 0.1, hinglish: ['kurti'] },
  { type: 'Saree', category: 'clothing', audiences: ["Women's"], materials: ['Banarasi Silk', 'Cotton', 'Georgette', 'Chiffon', 'Kanjivaram'], extras: ['with Blouse Piece', 'Zari Work', 'Printed', 'Woven'], model: 0, hinglish: ['saree', 'sari'] },
  { type: 'T-Shirt', category: 'clothing', audiences: ["Men's", "Women's", 'Boys'], materials: ['Cotton', 'Polyester', 'Dri-Fit'], extras: ['Round Neck', 'Polo', 'Solid', 'Graphic Print', 'Slim Fit'], model: 0.05 },
  { type: 'Jeans', category: 'clothing', audiences: ["Men's", "Women's"], materials: ['Denim', 'Stretch Denim'], extras: ['Slim Fit', 'Skinny', 'Mid Rise', 'Distressed'], model: 0.1 },
  { type: 'Lehenga Choli', category: 'clothing', audiences: ["Women's", 'Girls'], materials: ['Net', 'Silk', 'Georgette'], extras: ['Semi Stitched', 'Bridal', 'Embroidered'], model: 0, hinglish: ['lehenga'] },
  { type: 'Chappal', category: 'footwear', audiences: ["Women's", "Men's"], materials: ['Rubber', 'PU', 'Leather'], extras: ['Flat', 'Slip On', 'Comfortable', 'Daily Wear'], model: 0.2, hinglish: ['chappal', 'chappals'] },
  { type: 'Sports Shoes', category: 'footwear', audiences: ["Men's", "Women's", 'Boys'], materials: ['Mesh', 'Synthetic'], extras: ['Running', 'Walking', 'Lightweight', 'Lace Up'], model: 0.5 },
  { type: 'Sandals', category: 'footwear', audiences: ["Men's", "Women's", 'Girls'], materials: ['Leather', 'Synthetic'], extras: ['Casual', 'Velcro', 'Outdoor'], model: 0.4 },
  { type: 'Jhumka Earrings', category: 'jewellery', audiences: ["Women's", 'Girls'], materials: ['Oxidised Silver', 'Gold Plated', 'Kundan'], extras: ['Traditional', 'Pearl', 'Temple'], model: 0.1, hinglish: ['jhumka', 'jhumki'] },
  { type: 'Mangalsutra', category: 'jewellery', audiences: ["Women's"], materials: ['Gold Plated', 'American Diamond'], extras: ['Short', 'Long', 'Traditional'], model: 0.1, hinglish: ['mangalsutra'] },
  { type: 'Analog Watch', category: 'watches', audiences: ["Men's", "Women's", 'Boys'], materials: ['Stainless Steel', 'Leather Strap', 'Silicone Strap'], extras: ['Chronograph', 'Water Resistant', 'Round Dial', 'Day and Date'], model: 0.9, hinglish: ['ghadi'] },
  { type: 'Smart Watch', category: 'watches', audiences: ["Men's", "Women's"], materials: ['Silicone Strap', 'Metal Strap'], extras: ['Bluetooth Calling', '1.83 inch Display', 'SpO2', 'Heart Rate Monitor'], model: 0.8 },
  { type: 'School Bag', category: 'bags', audiences: ['Kids', 'Boys', 'Girls'], materials: ['Polyester', 'Nylon'], extras: ['Waterproof', '3 Compartments', 'Cartoon Print'], model: 0.3, hinglish: ['school bag', 'basta'] },
  { type: 'Trolley Bag', category: 'bags', audiences: ['Unisex'], materials: ['Polycarbonate', 'Polyester'], extras: ['Cabin Size', '4 Wheels', 'Hard Sided', 'TSA Lock'], model: 0.6 },
  { type: 'Back Cover', category: 'mobile-accessories', audiences: ['for Samsung Galaxy M14', 'for Redmi Note 13', 'for iPhone 15', 'for Vivo Y28', 'for Realme Narzo 70'], materials: ['Silicone', 'TPU', 'Leather'], extras: ['Shockproof', 'Transparent', 'Camera Protection'], model: 0.3, hinglish: ['mobile cover', 'phone cover'] },
  { type: 'Power Bank', category: 'mobile-accessories', audiences: ['10000 mAh', '20000 mAh'], materials: ['Lithium Polymer'], extras: ['Fast Charging', '22.5W', 'Dual Output', 'Type C PD'], model: 0.9 },
  { type: 'Charger', category: 'mobile-accessories', audiences: ['25W', '33W', '65W'], materials: ['USB C'], extras: ['Fast Charger', 'with Cable', 'BIS Certified'], model: 0.8 },
  { type: 'Wireless Earbuds', category: 'audio', audiences: ['TWS'], materials: ['Bluetooth 5.3'], extras: ['40H Playtime', 'ENC Mic', 'Low Latency', 'IPX5'], model: 0.9 },
  { type: 'Neckband', category: 'audio', audiences: ['Bluetooth'], materials: ['Magnetic'], extras: ['Deep Bass', '30H Playback', 'Fast Charge'], model: 0.9 },
  { type: 'Pressure Cooker', category: 'cookware', audiences: ['3 Litre', '5 Litre', '2 Litre'], materials: ['Aluminium', 'Stainless Steel', 'Hard Anodised'], extras: ['Induction Base', 'Outer Lid', 'Inner Lid'], model: 0.3, hinglish: ['cooker'] },
  { type: 'Tawa', category: 'cookware', audiences: ['Dosa', 'Roti', 'Flat'], materials: ['Cast Iron', 'Non Stick', 'Iron'], extras: ['Induction Friendly', '28 cm', 'Pre Seasoned'], model: 0.1, hinglish: ['tawa', 'tava'] },
  { type: 'Kadai', category: 'cookware', audiences: ['Deep', 'Flat Base'], materials: ['Iron', 'Non Stick', 'Triply Stainless Steel'], extras: ['with Lid', '2.5 L', 'Induction Base'], model: 0.1, hinglish: ['kadai', 'kadhai'] },
  { type: 'Mixer Grinder', category: 'appliances', audiences: ['500W', '750W', '1000W'], materials: ['3 Jars', '4 Jars'], extras: ['Stainless Steel Blades', 'Overload Protection'], model: 0.9, hinglish: ['mixie', 'mixer'] },
  { type: 'Electric Kettle', category: 'appliances', audiences: ['1.5 Litre', '1.8 Litre'], materials: ['Stainless Steel'], extras: ['Auto Shut Off', '1500W', 'Boil Dry Protection'], model: 0.8 },
  { type: 'Wall Clock', category: 'home-decor', audiences: ['Round', 'Square'], materials: ['Wooden', 'Plastic', 'Metal'], extras: ['Silent Sweep', 'Designer', 'Living Room'], model: 0.3, hinglish: ['ghadi'] },
  { type: 'Bedsheet', category: 'home-decor', audiences: ['Double Bed', 'King Size', 'Single Bed'], materials: ['Cotton', 'Microfiber', 'Glace Cotton'], extras: ['with 2 Pillow Covers', '144 TC', 'Floral Print', 'Jaipuri'], model: 0, hinglish: ['chadar', 'bedsheet'] },
  { type: 'Face Wash', category: 'beauty', audiences: ["Men's", "Women's"], materials: ['Neem', 'Vitamin C', 'Charcoal', 'Aloe Vera'], extras: ['100 ml', 'Oil Control', 'for All Skin Types'], model: 0 },
  { type: 'Hair Oil', category: 'beauty', audiences: ['Unisex'], materials: ['Coconut', 'Onion', 'Amla', 'Bhringraj'], extras: ['200 ml', 'for Hair Fall Control', 'Ayurvedic'], model: 0, hinglish: ['baal ka tel', 'tel'] },
  { type: 'Soft Toy', category: 'toys', audiences: ['Kids'], materials: ['Plush', 'Velvet'], extras: ['Teddy Bear', '30 cm', 'Washable'], model: 0.1, hinglish: ['khilona'] },
  { type: 'Gel Pen', category: 'stationery', audiences: ['Pack of 10', 'Pack of 20'], materials: ['0.5 mm', '0.7 mm'], extras: ['Blue Ink', 'Smooth Writing', 'Black Ink'], model: 0.4 },
]

const BRANDS: Record<string, string[]> = {
  clothing: ['Libas', 'Aurelia', 'W', 'Biba', 'Jaipur Kurti', 'Manyavar', 'Roadster', 'Allen Solly', "Levi's", 'Highlander', 'Sangria', 'Anouk'],
  footwear: ['Bata', 'Paragon', 'Relaxo', 'Sparx', 'Campus', 'Red Tape', 'Asian', 'Khadims', 'Liberty'],
  jewellery: ['Sukkhi', 'Zaveri Pearls', 'YouBella', 'Priyaasi', 'Voylla'],
  watches: ['Titan', 'Fastrack', 'Sonata', 'Maxima', 'Timex', 'Noise', 'boAt', 'Fire-Boltt', 'Casio'],
  bags: ['Skybags', 'American Tourister', 'Safari', 'VIP', 'Wildcraft', 'Genie'],
  'mobile-accessories': ['Spigen', 'Ambrane', 'Mi', 'Portronics', 'URBN', 'Stuffcool', 'Realme'],
  audio: ['boAt', 'Noise', 'JBL', 'Boult', 'Realme', 'OnePlus', 'pTron'],
  cookware: ['Prestige', 'Hawkins', 'Pigeon', 'Butterfly', 'Vinod', 'Meyer'],
  appliances: ['Bajaj', 'Philips', 'Preethi', 'Sujata', 'Butterfly', 'Havells', 'Prestige'],
  'home-decor': ['Ajanta', 'Bombay Dyeing', 'Raymond Home', 'Story@Home', 'Jaipur Fabric'],
  beauty: ['Himalaya', 'Mamaearth', 'Biotique', 'Parachute', 'Indulekha', 'Dabur', 'Nivea'],
  toys: ['Mirada', 'Fun Zoo', 'Hamleys', 'Funskool'],
  stationery: ['Cello', 'Reynolds', 'Linc', 'Pentonic', 'Flair'],
}
const COLOURS = ['Black', 'White', 'Navy Blue', 'Maroon', 'Mustard Yellow', 'Bottle Green', 'Pink', 'Grey', 'Beige', 'Red', 'Wine', 'Sky Blue', 'Multicolour', 'Peach', 'Olive']
const SIZES = ['S', 'M', 'L', 'XL', 'XXL', 'Free Size', 'UK 6', 'UK 7', 'UK 8', 'UK 9', 'Pack of 2', 'Pack of 3', 'Combo', '']
const STUFFING = ['Latest Design', 'Best Quality', 'for Festival Wedding Party Office Daily Use', 'Trendy Stylish', 'New Arrival 2026', 'Premium Gift Item', 'Combo Offer', 'Value Pack', 'Top Selling', 'Made in India']
/** How Hinglish says who a product is for. */
const HINGLISH_AUDIENCE: Record<string, string[]> = {
  "Women's": ['ladies', 'aurat ke liye', 'mahila'],
  "Men's": ['gents', 'mard ke liye', 'purush'],
  Girls: ['ladkiyon ke liye', 'ladki'],
  Boys: ['ladkon ke liye', 'ladka'],
  Kids: ['bachon ke liye', 'baccho ka'],
}

interface Made {
  row: ProductImportRow
  kind: Kind
  audience: string
  model: string | null
  grid?: Grid
}

/** A product's options and variants (each an option value per option, in order), for search:eval to store. */
export interface Grid {
  slug: string
  options: { name: string; values: string[] }[]
  variants: { values: string[]; isActive: boolean }[]
}

const APPAREL_SIZES = ['S', 'M', 'L', 'XL', 'XXL']
const SHOE_SIZES = ['UK 6', 'UK 7', 'UK 8', 'UK 9', 'UK 10']
const VARIANT_COLOURS = ['Black', 'White', 'Navy Blue', 'Maroon', 'Mustard Yellow', 'Bottle Green', 'Pink', 'Grey', 'Beige', 'Red', 'Wine', 'Olive']

const slugify = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 150).replace(/^-+|-+$/g, '')

export function messyCatalog(count = 20_000, seed = 2026): { catalog: CatalogImport; judgments: Judgment[]; grids: Grid[] } {
  const rand = random(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
  const chance = (p: number) => rand() < p
  const made: Made[] = []
  const modelOf = () => {
    const letters = 'ABCDEFGHJKLMNPRSTUVWXY'
    const l = (n: number) => Array.from({ length: n }, () => pick([...letters])).join('')
    const d = (n: number) => Array.from({ length: n }, () => String(Math.floor(rand() * 10))).join('')
    return pick([() => `${d(5)}${l(4)}`, () => `${l(2)}-${l(1)}${d(3)}${l(1)}`, () => `${l(3)}${d(4)}`, () => `${l(1)}${d(3)}${l(2)}`, () => `${d(4)}${l(2)}${d(2)}`])()
  }
  for (let i = 0; i < count; i++) {
    // Sellers copy each other's listings: about 3% of products repeat an earlier product's name.
    if (i > 100 && chance(0.03)) {
      const twin = made[Math.floor(rand() * made.length)]!
      made.push({ ...twin, row: { ...twin.row, slug: `${slugify(twin.row.slug.slice(0, 140))}-${i}`, sku: `MSY-${i}`, brand: chance(0.5) ? twin.row.brand : '' } })
      continue
    }
    const kind = pick(KINDS)
    const brand = chance(0.29) ? '' : pick(BRANDS[kind.category]!)
    const audience = pick(kind.audiences)
    const model = chance(kind.model) ? modelOf() : null
    const parts: string[] = []
    if (brand && chance(0.9)) parts.push(brand)
    if (audience.startsWith('for ')) parts.push(pick(kind.materials), pick(kind.extras), kind.type, audience)
    else parts.push(audience, pick(kind.materials), pick(kind.extras), kind.type)
    if (model) parts.splice(brand ? 1 : 0, 0, model)
    if (chance(0.6)) parts.push(pick(COLOURS))
    const size = pick(SIZES)
    if (size && chance(0.5)) parts.push(`(${size})`)
    let name = parts.join(' ')
    // Keyword-stuffed listings: a tenth of the names run to 190-200 characters.
    if (chance(0.1)) {
      while (name.length < 190) name += ` ${pick([...STUFFING, pick(kind.extras), pick(COLOURS), pick(kind.materials)])}`
      name = name.slice(0, 200).replace(/\s+\S*$/, '')
    } else if (chance(0.3)) name += ` ${pick(STUFFING)}`
    made.push({
      row: {
        slug: `${slugify(name)}-${i}`,
        name,
        brand,
        sku: `MSY-${i}`,
        categorySlug: kind.category,
        sellingPrice: String(99 + Math.floor(rand() * 5000)),
        mrp: String(5099 + Math.floor(rand() * 5000)),
        stock: chance(0.15) ? 0 : Math.floor(rand() * 200),
        description: `${name}. ${pick(STUFFING)}. Material: ${pick(kind.materials)}.`,
      },
      kind,
      audience,
      model,
    })
  }
  const judgments = judge(made, rand)
  // Options, with a stream of their own (see the top of the file).
  const more = random(seed + 7)
  const pickMore = <T>(xs: readonly T[]) => xs[Math.floor(more() * xs.length)]!
  for (const m of made) {
    if ((m.kind.category !== 'clothing' && m.kind.category !== 'footwear') || more() >= 0.33) continue
    const chart = m.kind.category === 'footwear' ? SHOE_SIZES : APPAREL_SIZES
    const from = Math.floor(more() * 2)
    const sizes = chart.slice(from, from + 3 + Math.floor(more() * 3))
    const colours = [...new Set([pickMore(VARIANT_COLOURS), pickMore(VARIANT_COLOURS), pickMore(VARIANT_COLOURS)].slice(0, 1 + Math.floor(more() * 3)))]
    m.grid = {
      slug: m.row.slug,
      options: [{ name: 'Size', values: sizes }, { name: 'Colour', values: colours }],
      variants: sizes.flatMap((size) => colours.map((colour) => ({ values: [size, colour], isActive: more() >= 0.1 }))),
    }
  }
  judgments.push(...judgeVariants(made, more))
  return { catalog: { categories: CATEGORIES, products: made.map((m) => m.row) }, judgments, grids: made.flatMap((m) => (m.grid ? [m.grid] : [])) }
}

/** Whether a product sells this colour and size: an active variant of both, or (no options) its name says both. */
export function sells(m: { row: { name: string }; grid?: Grid }, colour: string, size: string): boolean {
  if (m.grid) return m.grid.variants.some((v) => v.isActive && v.values[0] === size && v.values[1] === colour)
  const name = ` ${words(m.row.name).join(' ')} `
  return name.includes(` ${words(colour).join(' ')} `) && name.includes(` ${words(size).join(' ')} `)
}

/** variant: "maroon kurta xl" (the words in one of three orders), judged from the products' variants and names. */
function judgeVariants(made: Made[], rand: () => number): Judgment[] {
  const out: Judgment[] = []
  const withGrid = made.filter((m) => m.grid)
  for (let n = 0; n < 50; n++) {
    const m = withGrid[Math.floor(rand() * withGrid.length)]!
    const active = m.grid!.variants.filter((v) => v.isActive)
    if (active.length === 0) continue
    const [size, colour] = active[Math.floor(rand() * active.length)]!.values as [string, string]
    const type = m.kind.type.toLowerCase()
    const query = [`${colour} ${type} ${size}`, `${type} ${colour} ${size}`, `${type} ${size} ${colour}`][n % 3]!.toLowerCase()
    const relevant: Record<string, number> = {}
    for (const x of made) if (x.kind === m.kind) relevant[x.row.slug] = sells(x, colour, size) ? 2 : 1
    out.push({ query, kind: 'variant', relevant })
  }
  return out
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** One edit in the longest word of at least 5 letters: a swap, a dropped or a doubled letter. */
function misspell(text: string, rand: () => number): string | null {
  const ws = text.split(' ')
  let at = -1
  for (let i = 0; i < ws.length; i++) if (/^[a-z]{5,}$/i.test(ws[i]!) && (at === -1 || ws[i]!.length > ws[at]!.length)) at = i
  if (at === -1) return null
  const w = ws[at]!
  const p = 1 + Math.floor(rand() * (w.length - 2))
  const edits = [w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2), w.slice(0, p) + w.slice(p + 1), w.slice(0, p) + w[p] + w.slice(p)]
  ws[at] = edits[Math.floor(rand() * edits.length)]!
  return ws.join(' ')
}

function judge(made: Made[], rand: () => number): Judgment[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
  const out: Judgment[] = []
  const byName = new Map<string, Made[]>()
  for (const m of made) byName.set(m.row.name.toLowerCase(), [...(byName.get(m.row.name.toLowerCase()) ?? []), m])
  const grades = (ms: Made[], grade: number, into: Record<string, number> = {}) => {
    for (const m of ms) into[m.row.slug] = Math.max(into[m.row.slug] ?? 0, grade)
    return into
  }
  const PER_CLASS = 50
  // known-item: the full name (a tenth of them the long stuffed names).
  for (let n = 0; n < PER_CLASS; n++) {
    const m = n % 10 === 0 ? pick(made.filter((x) => x.row.name.length >= 190)) : pick(made)
    out.push({ query: m.row.name, kind: 'known-item', relevant: grades(byName.get(m.row.name.toLowerCase())!, 3) })
  }
  // first-3: the first three words; names that start with them are right too.
  for (let n = 0; n < PER_CLASS; n++) {
    const m = pick(made.filter((x) => words(x.row.name).length >= 5))
    const head = words(m.row.name).slice(0, 3)
    const query = m.row.name.split(' ').slice(0, 3).join(' ')
    const starts = made.filter((x) => words(x.row.name).slice(0, 3).join(' ') === head.join(' '))
    out.push({ query, kind: 'first-3', relevant: grades([m], 3, grades(starts, 2)) })
  }
  // typo: brand or model, type and one more word, one of them misspelt.
  for (let n = 0; out.length < PER_CLASS * 3; n++) {
    const m = pick(made)
    const base = `${m.row.brand || m.kind.materials.find((x) => m.row.name.includes(x)) || ''} ${m.kind.type}`.trim()
    const query = misspell(base, rand)
    if (!query || query === base) continue
    const same = made.filter((x) => x.kind === m.kind && (m.row.brand ? x.row.brand === m.row.brand : x.row.name.includes(base.split(' ')[0]!)))
    out.push({ query, kind: 'typo', relevant: grades(same, 2) })
  }
  // brand: every brand, lower-cased as typed.
  const brands = [...new Set(made.map((m) => m.row.brand).filter(Boolean))].sort()
  for (let n = 0; n < PER_CLASS; n++) {
    const b = brands[(n * 7) % brands.length]!
    out.push({ query: n % 2 ? b.toLowerCase() : b, kind: 'brand', relevant: grades(made.filter((m) => m.row.brand === b), 2) })
  }
  // type: the type, sometimes with a material or audience word.
  for (let n = 0; n < PER_CLASS; n++) {
    const k = KINDS[n % KINDS.length]!
    const material = n >= KINDS.length ? pick(k.materials) : null
    const query = (material ? `${material} ${k.type}` : k.type).toLowerCase()
    const right = made.filter((m) => m.kind === k && (!material || m.row.name.includes(material)))
    out.push({ query, kind: 'type', relevant: grades(made.filter((m) => m.kind === k), 1, grades(right, 2)) })
  }
  // model: the model number alone, in upper or lower case.
  const withModel = made.filter((m) => m.model)
  for (let n = 0; n < PER_CLASS; n++) {
    const m = pick(withModel)
    out.push({ query: n % 2 ? m.model!.toLowerCase() : m.model!, kind: 'model', relevant: grades(made.filter((x) => x.model === m.model), 3) })
  }
  // hinglish: the type as it is said, often with who it is for.
  const hinglish = KINDS.filter((k) => k.hinglish)
  for (let n = 0; n < PER_CLASS; n++) {
    const k = hinglish[n % hinglish.length]!
    const said = pick(k.hinglish!)
    const audience = k.audiences.find((a) => HINGLISH_AUDIENCE[a] && rand() < 0.6)
    const query = audience ? (n % 2 ? `${pick(HINGLISH_AUDIENCE[audience]!)} ${said}` : `${said} ${pick(HINGLISH_AUDIENCE[audience]!)}`) : said
    const ofKind = made.filter((m) => m.kind === k || (said === 'ghadi' && m.kind.hinglish?.includes('ghadi')))
    out.push({ query, kind: 'hinglish', relevant: grades(ofKind.filter((m) => !audience || m.audience === audience), 2, grades(ofKind, 1)) })
  }
  return out
}
