// Catalog (CATALOG and ADMIN): products of a catalog (search, edit price, stock, active, images),
// the categories tree, and the all-or-nothing import of a CSV or JSON file with an upload progress
// bar and the API's per-row error report.
import { useEffect, useState } from 'react'
import { Alert, Box, Button, Card, CardContent, LinearProgress, MenuItem, TextField as MuiTextField, Typography } from '@mui/material'
import {
  ArrayInput,
  BooleanField,
  BooleanInput,
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
  useListContext,
} from 'react-admin'
import { ActionButton } from './actions.tsx'
import { API, api, errorMessage, session } from './api.ts'
import { ResponsiveTable } from './responsive.tsx'

const catalogFilter = (
  <ReferenceInput key="catalogId" source="catalogId" reference="catalogs" alwaysOn>
    <SelectInput optionText="name" label="Catalog" />
  </ReferenceInput>
)
const productFilters = [<SearchInput key="q" source="q" alwaysOn placeholder="Name, brand or SKU" />, catalogFilter]

export const ProductList = () => (
  <List filters={productFilters} perPage={25} exporter={false}>
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

export const ProductEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm toolbar={<Toolbar><SaveButton /></Toolbar>}>
      <TextInput source="name" fullWidth />
      <TextInput source="sellingPrice" label="Selling price (₹)" validate={money} />
      <TextInput source="mrp" label="MRP (₹)" validate={money} />
      <NumberInput source="stock" min={0} step={1} />
      <BooleanInput source="isActive" label="Active (shown to customers)" />
      <ArrayInput source="images">
        <SimpleFormIterator inline disableReordering>
          <TextInput source="" label="Image URL" fullWidth />
        </SimpleFormIterator>
      </ArrayInput>
      <TextInput source="description" multiline fullWidth />
    </SimpleForm>
  </Edit>
)

interface Category {
  id: string
  name: string
  slug: string
  parentId: string | null
  isActive: boolean
}

/** The categories of the chosen catalog as a tree (the API answers them flat, with parentId). */
function CategoryTree() {
  const { data, isPending } = useListContext<Category>()
  if (isPending || !data) return null
  const children = (parentId: string | null): Category[] => data.filter((c) => (c.parentId ?? null) === parentId)
  const branch = (parentId: string | null) => (
    <ul>
      {children(parentId).map((c) => (
        <li key={c.id}>
          {c.name} <small>({c.slug}{c.isActive ? '' : ', inactive'})</small>{' '}
          <ActionButton label={c.isActive ? 'Deactivate' : 'Activate'} method="PATCH" path={`/admin/categories/${c.id}`} body={{ isActive: !c.isActive }} sx={{ ml: 1, py: 0 }} />
          {children(c.id).length > 0 && branch(c.id)}
        </li>
      ))}
    </ul>
  )
  return <Box data-testid="category-tree">{branch(null)}</Box>
}

export const CategoryList = () => (
  <List filters={[catalogFilter]} perPage={1000} pagination={false} exporter={false}>
    <CategoryTree />
  </List>
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
          All or nothing: rows are matched by slug; one bad row and nothing is imported, with every problem listed by its row. CSV columns: slug, name, sku, categorySlug, sellingPrice, mrp, then any of brand, stock, images, description, weightGrams, isActive, hsnCode, gstRateBps.
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <MuiTextField select size="small" label="Catalog" value={catalogId} onChange={(e) => setCatalogId(e.target.value)} sx={{ minWidth: 220 }}>
            {catalogs.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </MuiTextField>
          <input type="file" accept=".csv,.json,text/csv,application/json" data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          <Button variant="contained" disabled={!file || !catalogId || report.state === 'uploading'} onClick={start}>
            Import
          </Button>
        </Box>
        {report.state !== 'idle' && <LinearProgress variant="determinate" value={report.progress} sx={{ my: 2 }} data-testid="import-progress" />}
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
