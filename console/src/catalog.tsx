// Catalog (CATALOG and ADMIN): products of a catalog (search, create, edit price, stock, active,
// images, HSN and GST rate; options and variants: variants.tsx), the categories tree (create, edit), and the all-or-nothing import of a CSV or JSON file with an upload progress
// bar and the API's per-row error report.
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { useWatch } from 'react-hook-form'
import { Alert, Box, Button, Card, CardContent, LinearProgress, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import {
  ArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  CreateButton,
  Datagrid,
  Edit,
  List,
  NumberField,
  NumberInput,
  ReferenceInput,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  Title,
  Toolbar,
  TopToolbar,
  required,
  useGetList,
  useListContext,
  useRecordContext,
} from 'react-admin'
import { ActionButton } from './actions.tsx'
import { API, api, errorMessage, session } from './api.ts'
import { History } from './audit.tsx'
import { ResponsiveTable } from './responsive.tsx'
import { VariantEditor } from './variants.tsx'

export const catalogFilter = (
  <ReferenceInput key="catalogId" source="catalogId" reference="catalogs" alwaysOn>
    {/* A long catalog name is cut short (…) on a phone rather than widening the page. */}
    <SelectInput optionText="name" label="Catalog" sx={{ maxWidth: { xs: 300, sm: 480 } }} />
  </ReferenceInput>
)
const productFilters = [<SearchInput key="q" source="q" alwaysOn placeholder="Name, brand or SKU" />, catalogFilter]

/** The list's Create button, which hands the chosen catalog to the form. */
export function CatalogListActions() {
  const { filterValues } = useListContext()
  return (
    <TopToolbar>
      <CreateButton state={{ record: { catalogId: filterValues.catalogId } }} />
    </TopToolbar>
  )
}

export const ProductList = () => (
  <List filters={productFilters} perPage={25} exporter={false} actions={<CatalogListActions />}>
    <ResponsiveTable primary={(r) => r.name} secondary={(r) => `₹${r.sellingPrice} · stock ${r.stock}${r.isActive ? '' : ' · inactive'}`} link="edit">
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" sortable={false} />
        <TextField source="sku" sortable={false} />
        <TextField source="brand" sortable={false} />
        <TextField source="sellingPrice" label="Price (₹)" sortable={false} />
        <TextField source="mrp" label="MRP (₹)" sortable={false} />
        <NumberField source="stock" sortable={false} />
        <BooleanField source="isActive" label="Active" sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const money = (value: string) => (value && !/^\d{1,13}(\.\d{1,2})?$/.test(value) ? 'An amount like 1299.00' : undefined)

const percent = (bps: number) => `${bps / 100} %`

/** The GST rate of a product or category: the rates in force (GET /admin/tax/rates), or empty to inherit. */
export function GstRateInput({ emptyText }: { emptyText: string }) {
  const record = useRecordContext()
  const { data = [], isPending } = useGetList('taxRates', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' }, filter: {} })
  const inForce = new Set<number>(data.map((r) => r.rateBps))
  const rates = [...inForce]
  // A stored rate that is no longer in force stays choosable, named as such, so that the form shows it.
  if (typeof record?.gstRateBps === 'number' && !inForce.has(record.gstRateBps)) rates.push(record.gstRateBps)
  const choices = rates.sort((a, b) => a - b).map((bps) => ({ id: bps, name: `${percent(bps)}${inForce.has(bps) ? '' : ' (not in force)'}` }))
  return <SelectInput source="gstRateBps" label="GST rate" choices={choices} isPending={isPending} emptyText={emptyText} />
}

/** A slug made from a name: lower-case words joined by hyphens (what the API takes). */
export const slugOf = (name: unknown) =>
  String(name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** Left empty, the slug is made from the name. */
const withSlug = (data: Record<string, any>) => ({ ...data, slug: data.slug || slugOf(data.name) })

/** The packed size as the API takes it: the three sides, or null when all are empty (one side missing goes as it is: the API's 400 names it). */
const withDimensions = (data: Record<string, any>) => {
  const size = data.dimensionsCm as Record<string, unknown> | null | undefined
  const empty = !size || ['length', 'breadth', 'height'].every((side) => size[side] === null || size[side] === undefined || size[side] === '')
  return { ...data, dimensionsCm: empty ? null : size }
}

/** Length, breadth and height of the packed unit (cm), for carriers: the parcel's box is made from them. */
const DimensionsInput = () => (
  <Stack direction="row" spacing={1}>
    <NumberInput source="dimensionsCm.length" label="Length (cm)" min={1} max={500} step={1} helperText="Packed; empty: not given" />
    <NumberInput source="dimensionsCm.breadth" label="Breadth (cm)" min={1} max={500} step={1} />
    <NumberInput source="dimensionsCm.height" label="Height (cm)" min={1} max={500} step={1} />
  </Stack>
)

const hsnHelp = "4 to 8 digits (SAC: 6, starting 99); empty: the category's"

const ImagesInput = () => (
  <ArrayInput source="images">
    <SimpleFormIterator inline disableReordering>
      <TextInput source="" label="Image URL" fullWidth />
    </SimpleFormIterator>
  </ArrayInput>
)

export const ProductEdit = () => (
  <Edit mutationMode="pessimistic" transform={withDimensions}>
    <SimpleForm toolbar={<Toolbar><SaveButton /></Toolbar>}>
      <TextInput source="name" fullWidth />
      <PriceAndStockInputs />
      <NumberInput source="weightGrams" label="Weight (grams)" min={1} step={1} />
      <DimensionsInput />
      <BooleanInput source="isActive" label="Active (shown to customers)" />
      <TextInput source="hsnCode" label="HSN/SAC code" helperText={hsnHelp} />
      <GstRateInput emptyText="The category's" />
      <ImagesInput />
      <TextInput source="description" multiline fullWidth />
    </SimpleForm>
    <VariantEditor />
    <ProductHistory />
  </Edit>
)

/**
 * The product's price, MRP and stock: edited here when it has no options; for a product with
 * options, its variants' summary, shown read-only (the API answers 409 to a write of them).
 */
function PriceAndStockInputs() {
  const product = useRecordContext()
  if (!product?.options?.length)
    return (
      <>
        <TextInput source="sellingPrice" label="Selling price (₹)" validate={money} />
        <TextInput source="mrp" label="MRP (₹)" validate={money} />
        <NumberInput source="stock" min={0} step={1} />
      </>
    )
  return (
    <>
      <Alert severity="info" data-testid="variant-summary-note" sx={{ mb: 2 }}>
        This product has options: its SKU, selling price, MRP and stock summarise its variants (the first variant's SKU, the lowest-priced active variant's price and MRP, the active variants' stock). Change them in Options and variants below.
      </Alert>
      <TextInput source="sku" label="SKU (the first variant's)" readOnly />
      <TextInput source="sellingPrice" label="Selling price (₹, the lowest active variant's)" readOnly />
      <TextInput source="mrp" label="MRP (₹, of that variant)" readOnly />
      <NumberInput source="stock" label="Stock (the active variants' total)" readOnly />
    </>
  )
}

/** Who changed the product's price, stock or anything else, for ADMIN and SUPPORT. */
function ProductHistory() {
  const product = useRecordContext()
  return <History object={product?.id === undefined ? undefined : String(product.id)} />
}

/** The categories of the catalog chosen in the form, named with their parents ("Audio › Earbuds"). */
function CategoryInput({ source, label, emptyText, exclude }: { source: string; label: string; emptyText?: string; exclude?: string }) {
  const catalogId = useWatch({ name: 'catalogId' }) as string | undefined
  // A picker names every category with its parents: it reads the catalog's categories whole (meta.whole).
  const { data = [], isPending } = useGetList<Category>('categories', { filter: { catalogId }, pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' }, meta: { whole: true } }, { enabled: Boolean(catalogId) })
  const byId = new Map(data.map((c) => [c.id, c]))
  const path = (c: Category): string => {
    const parent = c.parentId ? byId.get(c.parentId) : undefined
    return parent && parent.id !== c.id ? `${path(parent)} › ${c.name}` : c.name
  }
  const choices = data
    .filter((c) => c.id !== exclude)
    .map((c) => ({ id: c.id, name: `${path(c)}${c.isActive ? '' : ' (inactive)'}` }))
    .sort((a, b) => a.name.localeCompare(b.name))
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      isPending={Boolean(catalogId) && isPending}
      emptyText={emptyText}
      validate={emptyText === undefined ? required() : undefined}
      disabled={!catalogId}
      helperText={catalogId ? undefined : 'Choose a catalog first'}
    />
  )
}

// Constants: react-admin resets the form when its defaultValues object changes.
const NEW_PRODUCT = { isActive: true, stock: 0 }
const NEW_CATEGORY = { isActive: true }

export const ProductCreate = () => (
  <Create transform={(data: Record<string, any>) => withDimensions(withSlug(data))}>
    <SimpleForm defaultValues={NEW_PRODUCT}>
      <ReferenceInput source="catalogId" reference="catalogs">
        <SelectInput optionText="name" label="Catalog" validate={required()} />
      </ReferenceInput>
      <CategoryInput source="categoryId" label="Category" />
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="slug" helperText="Lower-case words joined by hyphens; empty: made from the name" />
      <TextInput source="brand" validate={required()} />
      <TextInput source="sku" label="SKU" validate={required()} />
      <TextInput source="sellingPrice" label="Selling price (₹)" validate={[required(), money]} />
      <TextInput source="mrp" label="MRP (₹)" validate={[required(), money]} />
      <NumberInput source="stock" min={0} step={1} />
      <NumberInput source="weightGrams" label="Weight (grams)" min={1} step={1} helperText="Empty: the API's default" />
      <DimensionsInput />
      <BooleanInput source="isActive" label="Active (shown to customers)" />
      <TextInput source="hsnCode" label="HSN/SAC code" helperText={hsnHelp} />
      <GstRateInput emptyText="The category's" />
      <ImagesInput />
      <TextInput source="description" multiline fullWidth />
    </SimpleForm>
  </Create>
)

interface Category {
  id: string
  catalogId: string
  name: string
  slug: string
  parentId: string | null
  isActive: boolean
}

const CHILDREN_PAGE = 25

/** One category of the tree: its own children are read a page at a time when it is opened. */
function CategoryNode({ category, open: openAtFirst }: { category: Category; open: boolean }) {
  const [open, setOpen] = useState(openAtFirst)
  const c = category
  return (
    <li>
      <Button size="small" sx={{ minWidth: 0, px: 0.5, py: 0 }} onClick={() => setOpen(!open)} aria-label={`${open ? 'Close' : 'Open'} ${c.name}`} aria-expanded={open}>
        {open ? '▾' : '▸'}
      </Button>
      {c.name} <small>({c.slug}{c.isActive ? '' : ', inactive'})</small>{' '}
      <Button component={Link} to={`/categories/${c.id}`} size="small" sx={{ ml: 1, py: 0 }} aria-label={`Edit ${c.name}`}>
        Edit
      </Button>
      <ActionButton label={c.isActive ? 'Deactivate' : 'Activate'} method="PATCH" path={`/admin/categories/${c.id}`} body={{ isActive: !c.isActive }} sx={{ ml: 1, py: 0 }} />
      {open && <CategoryChildren catalogId={c.catalogId} parentId={c.id} />}
    </li>
  )
}

/** The children of a category, CHILDREN_PAGE at a time (the API pages them: ?parentId=). */
function CategoryChildren({ catalogId, parentId }: { catalogId: string; parentId: string }) {
  const [pages, setPages] = useState(1)
  return (
    <ul>
      {Array.from({ length: pages }, (_, i) => (
        <CategoryChildPage key={i} catalogId={catalogId} parentId={parentId} page={i + 1} last={i + 1 === pages} more={() => setPages(pages + 1)} />
      ))}
    </ul>
  )
}

function CategoryChildPage({ catalogId, parentId, page, last, more }: { catalogId: string; parentId: string; page: number; last: boolean; more: () => void }) {
  const { data, total, isPending } = useGetList<Category>('categories', { filter: { catalogId, parentId }, pagination: { page, perPage: CHILDREN_PAGE }, sort: { field: 'position', order: 'ASC' } })
  if (isPending || !data) return null
  if (page === 1 && data.length === 0)
    return (
      <li>
        <Typography variant="caption">No subcategories</Typography>
      </li>
    )
  const left = (total ?? 0) - page * CHILDREN_PAGE
  return (
    <>
      {data.map((c) => (
        <CategoryNode key={c.id} category={c} open={false} />
      ))}
      {last && left > 0 && (
        <li>
          <Button size="small" onClick={more}>
            {left} more
          </Button>
        </li>
      )}
    </>
  )
}

/** A page of the catalog's top categories (or of every category matching the search), each opening its children. */
function CategoryTree() {
  const { data, isPending, filterValues } = useListContext<Category>()
  if (isPending || !data) return null
  return (
    <Box data-testid="category-tree">
      <ul>
        {data.map((c) => (
          <CategoryNode key={c.id} category={c} open={!filterValues.q} />
        ))}
      </ul>
    </Box>
  )
}

export const CategoryList = () => (
  <List filters={[catalogFilter, <SearchInput key="q" source="q" alwaysOn placeholder="Name or slug, at any level" />]} perPage={25} exporter={false} actions={<CatalogListActions />}>
    <CategoryTree />
  </List>
)

/** Fields shared by a new category and an edited one. */
function CategoryFields({ editing }: { editing?: string }) {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <TextInput source="slug" helperText={editing ? 'Lower-case words joined by hyphens' : 'Lower-case words joined by hyphens; empty: made from the name'} />
      <CategoryInput source="parentId" label="Parent" emptyText="None (a top category)" exclude={editing} />
      <NumberInput source="position" min={0} step={1} helperText="Order among its siblings (0 first)" />
      <BooleanInput source="isActive" label="Active" />
      <TextInput source="hsnCode" label="Default HSN/SAC code" helperText="4 to 8 digits; empty: the parent's" />
      <GstRateInput emptyText="The parent's" />
    </>
  )
}

export const CategoryCreate = () => (
  <Create transform={withSlug} redirect="list">
    <SimpleForm defaultValues={NEW_CATEGORY}>
      <ReferenceInput source="catalogId" reference="catalogs">
        <SelectInput optionText="name" label="Catalog" validate={required()} />
      </ReferenceInput>
      <CategoryFields />
    </SimpleForm>
  </Create>
)

function CategoryEditFields() {
  const record = useRecordContext<Category>()
  return <CategoryFields editing={record?.id} />
}

export const CategoryEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm toolbar={<Toolbar><SaveButton /></Toolbar>}>
      <CategoryEditFields />
    </SimpleForm>
  </Edit>
)

interface Report {
  state: 'idle' | 'uploading' | 'done' | 'failed'
  progress: number
  message?: string
  problems?: string[]
  summary?: Record<string, unknown>
}

/** Sends the file with XMLHttpRequest: fetch cannot report upload progress. */
function upload(catalogId: string, file: File, onProgress: (percent: number) => void): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${API}/admin/catalogs/${catalogId}/import`)
    xhr.setRequestHeader('authorization', `Bearer ${session()?.accessToken ?? ''}`)
    xhr.setRequestHeader('content-type', file.name.toLowerCase().endsWith('.csv') ? 'text/csv' : 'application/json')
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100))
    xhr.onload = () => {
      try {
        resolve({ status: xhr.status, body: JSON.parse(xhr.responseText) })
      } catch {
        resolve({ status: xhr.status, body: null })
      }
    }
    xhr.onerror = () => reject(new Error('The upload failed: is the service running?'))
    xhr.send(file)
  })
}

export function CatalogImport() {
  const [catalogs, setCatalogs] = useState<{ id: string; name: string }[]>([])
  const [catalogId, setCatalogId] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [report, setReport] = useState<Report>({ state: 'idle', progress: 0 })
  useEffect(() => {
    api<{ id: string; name: string }[]>('GET', '/admin/catalogs').then(
      (a) => {
        setCatalogs(a.data)
        setCatalogId((current) => current || a.data[0]?.id || '')
      },
      (err: Error) => setReport({ state: 'failed', progress: 0, message: err.message }),
    )
  }, [])
  async function start() {
    if (!file || !catalogId) return
    setReport({ state: 'uploading', progress: 0 })
    try {
      const { status, body } = await upload(catalogId, file, (progress) => setReport((r) => ({ ...r, progress })))
      const answer = body as { message?: unknown; data?: Record<string, unknown> } | null
      if (status >= 200 && status < 300) setReport({ state: 'done', progress: 100, message: String(answer?.message ?? 'Imported'), summary: answer?.data })
      else setReport({ state: 'failed', progress: 100, message: Array.isArray(answer?.message) ? 'Import refused: nothing was imported' : errorMessage(answer, status), problems: Array.isArray(answer?.message) ? (answer.message as string[]) : undefined })
    } catch (err) {
      setReport({ state: 'failed', progress: 0, message: (err as Error).message })
    }
  }
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="Catalog import" />
      <CardContent>
        <Typography variant="h6">Import products (CSV) or categories and products (JSON)</Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          All or nothing: rows are matched by slug; one bad row and nothing is imported, with every problem listed by its row. CSV columns: slug, name, sku, categorySlug, sellingPrice, mrp, then any of brand, stock, images, description, weightGrams, lengthCm, breadthCm, heightCm, isActive, hsnCode, gstRateBps.
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <MuiTextField select size="small" label="Catalog" value={catalogId} onChange={(e) => setCatalogId(e.target.value)} sx={{ minWidth: 220 }}>
            {catalogs.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </MuiTextField>
          <input type="file" aria-label="CSV or JSON file to import" accept=".csv,.json,text/csv,application/json" data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          <Button variant="contained" disabled={!file || !catalogId || report.state === 'uploading'} onClick={start}>
            Import
          </Button>
        </Box>
        {report.state !== 'idle' && <LinearProgress variant="determinate" value={report.progress} sx={{ my: 2 }} data-testid="import-progress" aria-label="Import progress" />}
        {report.state === 'done' && (
          <Alert severity="success" data-testid="import-result">
            {report.message}: {JSON.stringify(report.summary)}
          </Alert>
        )}
        {report.state === 'failed' && (
          <Alert severity="error" data-testid="import-result">
            {report.message}
            {report.problems && (
              <ul data-testid="import-problems">
                {report.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}
      </CardContent>
    </Card>
  )
}
