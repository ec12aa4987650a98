// GST back office: the rates in force and the products that cannot be taxed (CATALOG and ADMIN,
// who fix them in the product's form), and per catalog its GST seller and the GSTR-1 style report
// as a CSV download (ADMIN).
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { Alert, Box, Button, Card, CardContent, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, FunctionField, List, type RaRecord, SaveButton, SimpleForm, TextField, TextInput, Title, Toolbar, required, useNotify } from 'react-admin'
import { useApiAction } from './actions.tsx'
import { api, download, query } from './api.ts'
import { catalogFilter } from './catalog.tsx'
import { CatalogPicker } from './pickers.tsx'
import { ResponsiveTable, STATIC_TOOLBAR } from './responsive.tsx'

const percent = (bps: number | null | undefined) => (bps == null ? '' : `${bps / 100} %`)

export const TaxRateList = () => (
  <List perPage={50} exporter={false} title="GST rates in force">
    <ResponsiveTable primary={(r) => r.label} secondary={(r) => `${percent(r.rateBps)}${r.cessBps ? ` + cess ${percent(r.cessBps)}` : ''} · from ${r.effectiveFrom}${r.effectiveTo ? ` until ${r.effectiveTo}` : ''}`} link={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="label" sortable={false} />
        <FunctionField label="Rate" render={(r: RaRecord) => percent(r.rateBps)} />
        <FunctionField label="Cess" render={(r: RaRecord) => percent(r.cessBps)} />
        <TextField source="effectiveFrom" label="In force from" sortable={false} />
        <TextField source="effectiveTo" label="Until (first day out)" sortable={false} emptyText="—" />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const PROBLEMS: Record<string, string> = { HSN_CODE_MISSING: 'no HSN code', GST_RATE_MISSING: 'no GST rate', GST_RATE_NOT_IN_FORCE: 'GST rate not in force' }
const problems = (r: RaRecord) => (r.problems as string[]).map((p) => PROBLEMS[p] ?? p).join(', ')
const productEdit = (id: unknown) => `/products/${String(id)}`

/** Active products without an HSN code or a GST rate in force (a server page); each opens the product's form. */
export const UntaxedProductList = () => (
  <List filters={[catalogFilter]} perPage={25} exporter={false} title="Products that cannot be taxed">
    <ResponsiveTable primary={(r) => r.name} secondary={problems} link={productEdit}>
      <Datagrid bulkActionButtons={false} rowClick={productEdit}>
        <TextField source="name" sortable={false} />
        <TextField source="sku" label="SKU" sortable={false} />
        <TextField source="hsnCode" label="HSN" sortable={false} emptyText="—" />
        <FunctionField label="GST rate" render={(r: RaRecord) => percent(r.gstRateBps) || '—'} />
        <FunctionField label="Problems" render={problems} />
        <FunctionField
          label=""
          render={(r: RaRecord) => (
            <Button component={Link} to={productEdit(r.id)} size="small" onClick={(e) => e.stopPropagation()}>
              Edit
            </Button>
          )}
        />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

/** The body PUT /admin/catalogs/{id}/seller takes, from the form's values. */
function sellerBody(v: Record<string, any>) {
  const a = v.address ?? {}
  return { legalName: v.legalName, tradeName: v.tradeName ?? null, gstin: v.gstin, address: { line1: a.line1, line2: a.line2 ?? null, city: a.city, state: a.state, pincode: a.pincode } }
}

function SellerForm({ catalogId }: { catalogId: string }) {
  const [seller, setSeller] = useState<Record<string, any> | null>(null)
  const [note, setNote] = useState('')
  const { run, error } = useApiAction()
  useEffect(() => {
    api('GET', `/admin/catalogs/${catalogId}/seller`).then(
      (a) => setSeller(a.data),
      (err: Error & { status?: number }) => {
        setNote(err.message)
        if (err.status === 404) setSeller({})
      },
    )
  }, [catalogId])
  if (!seller) return note ? <Alert severity="error">{note}</Alert> : null
  return (
    <Box data-testid="seller">
      <Typography variant="h6">Seller (GST registration)</Typography>
      {note && <Alert severity="info">{note}</Alert>}
      {seller.stateCode && (
        <Typography variant="body2" data-testid="seller-state">
          GSTIN {seller.gstin}: state {seller.stateCode}-{seller.stateName}
        </Typography>
      )}
      <SimpleForm
        key={seller.updatedAt ?? 'new'}
        record={seller}
        onSubmit={async (values: Record<string, any>) => {
          const answer = await run<Record<string, any>>('PUT', `/admin/catalogs/${catalogId}/seller`, sellerBody(values))
          if (answer) {
            setSeller(answer.data)
            setNote('')
          }
        }}
        toolbar={
          <Toolbar sx={STATIC_TOOLBAR}>
            <SaveButton label="Save seller" />
          </Toolbar>
        }
        sx={{ p: 0 }}
      >
        <TextInput source="legalName" label="Legal name" validate={required()} fullWidth />
        <TextInput source="tradeName" label="Trade name" fullWidth />
        <TextInput source="gstin" label="GSTIN" validate={required()} helperText="15 characters; checked by the API (state code, PAN, check character)" />
        <TextInput source="address.line1" label="Address line 1" validate={required()} fullWidth />
        <TextInput source="address.line2" label="Address line 2" fullWidth />
        <TextInput source="address.city" label="City" validate={required()} />
        <TextInput source="address.state" label="State" validate={required()} helperText="The GSTIN's state" />
        <TextInput source="address.pincode" label="Pincode" validate={required()} />
        {error && (
          <Alert severity="error" data-testid="seller-error" sx={{ whiteSpace: 'pre-line' }}>
            {error}
          </Alert>
        )}
      </SimpleForm>
    </Box>
  )
}

/** Today and the first of this month in India, as YYYY-MM-DD. */
function indiaDays() {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  return { today, monthStart: `${today.slice(0, 8)}01` }
}

function Gstr1Download({ catalogId }: { catalogId: string }) {
  const notify = useNotify()
  const { today, monthStart } = indiaDays()
  const [from, setFrom] = useState(monthStart)
  const [to, setTo] = useState(today)
  const [busy, setBusy] = useState(false)
  async function start() {
    setBusy(true)
    try {
      const name = await download(`/admin/catalogs/${catalogId}/tax/gstr1${query({ from, to, format: 'csv' })}`, `gstr1-b2c-${from}-${to}.csv`)
      notify(`GST report downloaded: ${name}`, { type: 'success' })
    } catch (err) {
      notify((err as Error).message, { type: 'error', multiLine: true })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h6">GSTR-1 (B2C summaries)</Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        B2CS, B2CL and CDNUR of the seller's invoices and credit notes issued on these days (India), as one CSV table with a section column.
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <MuiTextField type="date" size="small" label="From" value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <MuiTextField type="date" size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <Button variant="contained" disabled={busy || !from || !to} onClick={start}>
          Download CSV
        </Button>
      </Box>
    </Box>
  )
}

/** ADMIN: a catalog's GST seller and its GSTR-1 report. */
export function GstSeller() {
  const [catalogId, setCatalogId] = useState('')
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="GST seller and GSTR-1" />
      <CardContent>
        <Box sx={{ mb: 2 }}>
          <CatalogPicker value={catalogId} onChange={setCatalogId} />
        </Box>
        {catalogId && <SellerForm key={catalogId} catalogId={catalogId} />}
        {catalogId && <Gstr1Download catalogId={catalogId} />}
      </CardContent>
    </Card>
  )
}
