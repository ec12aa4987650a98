// The ceiling: a bare Fastify route answering a JSON body of the same shape and size as a product
// page, with no auth, database or cache. Catalog reads are measured against it.
import Fastify from 'fastify'

const product = (i: number) => ({
  id: `prd_01JD0000000000000000000${String(i).padStart(3, '0')}`,
  name: `Samsung Galaxy M35 5G Pro Black 128GB ${i}`,
  slug: `samsung-galaxy-m35-5g-128gb-pro-${i}`,
  brand: 'Samsung',
  sku: `SYN-${i}`,
  categoryId: 'ctg_01JD00000000000000000000000',
  sellingPrice: '16999.00',
  mrp: '24499.00',
  stock: 42,
  images: [`https://cdn.example.com/catalog/products/samsung-galaxy-m35-5g-128gb-${i}.jpg`],
  isActive: true,
})
const body = {
  statusCode: 200,
  message: 'Products retrieved',
  data: Array.from({ length: 20 }, (_, i) => product(i)),
  meta: { total: 100000, page: 1, limit: 20, totalPages: 5000 },
}

const app = Fastify({ logger: false })
app.get('/ceiling', async () => body)
await app.listen({ port: Number(process.env.PORT ?? 3999), host: '127.0.0.1' })
