// GST back office: the rates in force and the products that cannot be taxed (CATALOG and ADMIN,
// who fix them in the product's form); GST registrations (one per GSTIN: names, address, series
// prefixes, filing frequency), each catalog's seller (the registration it sells under), and GSTR-1
// of a GSTIN for a return period as the portal's JSON file or a CSV (ADMIN).
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import {
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  type RaRecord,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Title,
  Toolbar,
  required,
  useNotify,
  useRecordContext,
} from 'react-admin'
import { ActionButton, useApiAction, useSaveError } from './actions.tsx'
import { api, download, query } from './api.ts'
import { catalogFilter } from './catalog.tsx'
import { CatalogPicker, RegistrationPicker, type RegistrationOption } from './pickers.tsx'
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

const FREQUENCIES = [
  { id: 'MONTHLY', name: 'Monthly' },
  { id: 'QUARTERLY', name: 'Quarterly (QRMP)' },
]
const prefixesOf = (r: RaRecord) => (r.prefixes ? `${r.prefixes.invoice} · ${r.prefixes.billOfSupply} · ${r.prefixes.creditNote}` : '')
const stateOf = (r: RaRecord) => `${r.stateCode}-${r.stateName}`
const catalogsOf = (r: RaRecord) => ((r.catalogIds as string[] | undefined) ?? []).length

/** ADMIN: GST registrations, a server page searched by GSTIN or name. */
export const GstRegistrationList = () => (
  <List filters={[<SearchInput key="q" source="q" placeholder="GSTIN or name" alwaysOn />]} perPage={25} exporter={false} title="GST registrations">
    <ResponsiveTable primary={(r) => `${r.gstin} · ${r.legalName}`} secondary={(r) => `${stateOf(r)} · ${r.filingFrequency} · ${prefixesOf(r)} · ${catalogsOf(r)} catalogs`} link="edit">
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="gstin" label="GSTIN" sortable={false} />
        <TextField source="legalName" sortable={false} />
        <FunctionField label="State" render={stateOf} />
        <TextField source="filingFrequency" label="Filing" sortable={false} />
        <FunctionField label="Prefixes (invoice · bill of supply · credit note)" render={prefixesOf} />
        <FunctionField label="Catalogs" render={catalogsOf} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const prefix = (value: string) => (value && !/^[A-Z0-9-]{1,4}$/.test(value) ? '1 to 4 capital letters, digits or -' : undefined)

/** The inputs a registration shares between create and edit (the GSTIN is the create's alone). */
const RegistrationInputs = () => (
  <>
    <TextInput source="legalName" label="Legal name" validate={required()} fullWidth />
    <TextInput source="tradeName" label="Trade name" fullWidth />
    <TextInput source="address.line1" label="Address line 1" validate={required()} fullWidth />
    <TextInput source="address.line2" label="Address line 2" fullWidth />
    <TextInput source="address.city" label="City" validate={required()} />
    <TextInput source="address.state" label="State" validate={required()} helperText="The GSTIN's state" />
    <TextInput source="address.pincode" label="Pincode" validate={required()} />
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <TextInput source="prefixes.invoice" label="Invoice prefix" validate={[required(), prefix]} sx={{ width: 140 }} />
      <TextInput source="prefixes.billOfSupply" label="Bill of supply prefix" validate={[required(), prefix]} sx={{ width: 170 }} />
      <TextInput source="prefixes.creditNote" label="Credit note prefix" validate={[required(), prefix]} sx={{ width: 160 }} />
    </Stack>
    <SelectInput source="filingFrequency" label="GSTR-1 filing" choices={FREQUENCIES} validate={required()} helperText="Quarterly (QRMP): the return period is the quarter's last month" />
  </>
)

const SaveError = ({ error }: { error: string }) =>
  error ? (
    <Alert severity="error" data-testid="registration-error" sx={{ whiteSpace: 'pre-line', mt: 1 }}>
      {error}
    </Alert>
  ) : null

const SAVE_ONLY = (
  <Toolbar>
    <SaveButton />
  </Toolbar>
)

const NEW_REGISTRATION = { prefixes: { invoice: 'IN', billOfSupply: 'BS', creditNote: 'CN' }, filingFrequency: 'MONTHLY' }

export function GstRegistrationCreate() {
  const { error, mutationOptions, transform } = useSaveError()
  return (
    <Create redirect="edit" mutationOptions={mutationOptions} transform={transform} title="New GST registration">
      <SimpleForm defaultValues={NEW_REGISTRATION}>
        <TextInput source="gstin" label="GSTIN" validate={required()} helperText="15 characters; checked by the API (state code, PAN, check character). It never changes: another GSTIN is another registration" />
        <RegistrationInputs />
        <SaveError error={error} />
      </SimpleForm>
    </Create>
  )
}

/** The catalogs selling under the registration, and pointing another catalog at it. */
function RegistrationCatalogs() {
  const record = useRecordContext()
  const [catalogs, setCatalogs] = useState<{ id: string; name: string }[]>([])
  const [catalogId, setCatalogId] = useState('')
  useEffect(() => {
    void api<{ id: string; name: string }[]>('GET', '/admin/catalogs').then((a) => setCatalogs(a.data), () => setCatalogs([]))
  }, [])
  if (!record) return null
  const ids = (record.catalogIds as string[]) ?? []
  const names = ids.map((id) => catalogs.find((c) => c.id === id)?.name ?? id)
  return (
    <Box sx={{ mb: 2 }} data-testid="registration-catalogs">
      <Typography variant="body2">
        GSTIN {record.gstin}: state {stateOf(record)}. Catalogs selling under it: {names.length === 0 ? 'none' : names.join(', ')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Box sx={{ minWidth: 220 }}>
          <CatalogPicker value={catalogId} onChange={setCatalogId} />
        </Box>
        <ActionButton label="Sell this catalog under this GSTIN" disabled={!catalogId || ids.includes(catalogId)} method="PUT" path={`/admin/catalogs/${catalogId}/gst-registration`} body={{ registrationId: record.id }} />
      </Stack>
    </Box>
  )
}

export function GstRegistrationEdit() {
  const { error, mutationOptions, transform } = useSaveError()
  return (
    <Edit mutationMode="pessimistic" mutationOptions={mutationOptions} transform={transform} title="GST registration">
      {/* No delete: a registration's documents keep it. */}
      <SimpleForm toolbar={SAVE_ONLY}>
        <RegistrationCatalogs />
        <TextInput source="gstin" label="GSTIN" readOnly helperText="Never changes: another GSTIN is another registration" />
        <RegistrationInputs />
        <SaveError error={error} />
      </SimpleForm>
    </Edit>
  )
}

/** The body PUT /admin/catalogs/{id}/seller takes, from the form's values. */
function sellerBody(v: Record<string, any>) {
  const a = v.address ?? {}
  return { legalName: v.legalName, tradeName: v.tradeName ?? null, gstin: v.gstin, address: { line1: a.line1, line2: a.line2 ?? null, city: a.city, state: a.state, pincode: a.pincode } }
}

/** A catalog's seller by GSTIN (the registration of that GSTIN, created or brought up to date); `onRegistration` hears the registration it sells under. */
function SellerForm({ catalogId, onRegistration }: { catalogId: string; onRegistration: (registrationId: string, how: 'loaded' | 'saved') => void }) {
  const [seller, setSeller] = useState<Record<string, any> | null>(null)
  const [note, setNote] = useState('')
  const { run, error } = useApiAction()
  useEffect(() => {
    api('GET', `/admin/catalogs/${catalogId}/seller`).then(
      (a) => {
        setSeller(a.data)
        onRegistration(a.data.registrationId, 'loaded')
      },
      (err: Error & { status?: number }) => {
        setNote(err.message)
        if (err.status === 404) setSeller({})
      },
    )
  }, [catalogId])
  if (!seller) return note ? <Alert severity="error">{note}</Alert> : null
  return (
    <Box data-testid="seller">
      <Typography variant="h6">Seller of the catalog</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        Saving points the catalog at the GST registration of this GSTIN: created if there is none, its names and address brought up to date otherwise (for every catalog selling under it).
      </Typography>
      {note && <Alert severity="info">{note}</Alert>}
      {seller.stateCode && (
        <Typography variant="body2" data-testid="seller-state">
          GSTIN {seller.gstin}: state {seller.stateCode}-{seller.stateName}
        </Typography>
      )}
      {seller.registrationId && (
        <Typography variant="body2" data-testid="seller-registration">
          Registration:{' '}
          <Link to={`/gstRegistrations/${String(seller.registrationId)}`}>
            {seller.gstin} · {seller.legalName}
          </Link>{' '}
          (series prefixes and filing frequency are set there)
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
            onRegistration(answer.data.registrationId, 'saved')
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SHORT = MONTHS.map((m) => m.slice(0, 3))
const pad = (n: number) => String(n).padStart(2, '0')

/** This month in India: [year, month 1-12]. */
function indiaMonth(): [number, number] {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  return [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
}

/**
 * The return periods a filer may ask for, newest first (the current one as it stands), back to July
 * 2017 or 36 months: months for a monthly filer; quarters, named by their last month (`fp`), for a
 * quarterly one.
 */
export function returnPeriods(frequency: string, [year, month]: [number, number] = indiaMonth()): { fp: string; label: string }[] {
  const periods: { fp: string; label: string }[] = []
  const quarterly = frequency === 'QUARTERLY'
  let y = year
  let m = quarterly ? Math.ceil(month / 3) * 3 : month
  while (periods.length < (quarterly ? 12 : 36) && y * 100 + m >= 201707) {
    const label = quarterly ? `${SHORT[m - 3]}–${SHORT[m - 1]} ${y} (quarter)` : `${MONTHS[m - 1]} ${y}`
    periods.push({ fp: `${pad(m)}${y}`, label: `${label} · ${pad(m)}${y}` })
    m -= quarterly ? 3 : 1
    if (m < 1) {
      m += 12
      y -= 1
    }
  }
  return periods
}

/** GSTR-1 of a GSTIN for a return period: the portal's offline-tool JSON, or a CSV; the API's 400 shown if refused. */
function Gstr1Download({ registration, onRegistration }: { registration: RegistrationOption | null; onRegistration: (r: RegistrationOption) => void }) {
  const notify = useNotify()
  const periods = returnPeriods(registration?.filingFrequency ?? 'MONTHLY')
  const [fp, setFp] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  // A registration of the other frequency offers other periods: the newest of them.
  const period = periods.some((p) => p.fp === fp) ? fp : (periods[0]?.fp ?? '')
  async function start(format: 'portal' | 'csv') {
    if (!registration) return
    setBusy(true)
    try {
      const name = await download(`/admin/gst/gstr1${query({ gstin: registration.gstin, fp: period, format })}`, `gstr1-${registration.gstin}-${period}.${format === 'csv' ? 'csv' : 'json'}`)
      setError('')
      notify(`GSTR-1 downloaded: ${name}`, { type: 'success' })
    } catch (err) {
      setError((err as Error).message)
      notify((err as Error).message, { type: 'error', multiLine: true })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Box sx={{ mt: 3 }} data-testid="gstr1">
      <Typography variant="h6">GSTR-1 of a GSTIN</Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        The return of the documents a registration issued in the period (India), whichever catalog sold: B2CS, B2CL, CDNUR, nil-rated, HSN summary, documents issued and supplies through e-commerce operators. The JSON is the file the GST portal's offline tool imports; the CSV is one table with a section column.
      </Typography>
      <Stack spacing={2}>
        <RegistrationPicker value={registration} onChange={onRegistration} />
        {registration && (
          <Typography variant="body2" data-testid="gstr1-registration">
            {registration.legalName} · files {registration.filingFrequency === 'QUARTERLY' ? 'quarterly (QRMP): the period is the quarter, named by its last month' : 'monthly'}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 360px)' }}>
          <MuiTextField select size="small" label="Return period" value={period} onChange={(e) => setFp(e.target.value)} data-testid="gstr1-period">
            {periods.map((p) => (
              <MenuItem key={p.fp} value={p.fp}>
                {p.label}
              </MenuItem>
            ))}
          </MuiTextField>
        </Box>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" disabled={busy || !registration || !period} onClick={() => start('portal')}>
            Download JSON (portal)
          </Button>
          <Button variant="outlined" disabled={busy || !registration || !period} onClick={() => start('csv')}>
            Download CSV
          </Button>
        </Stack>
        {error && (
          <Alert severity="error" data-testid="gstr1-error" sx={{ whiteSpace: 'pre-line' }}>
            {error}
          </Alert>
        )}
      </Stack>
    </Box>
  )
}

/** ADMIN: a catalog's GST seller, and GSTR-1 of a GSTIN for a return period. */
export function GstSeller() {
  const [catalogId, setCatalogId] = useState('')
  const [registration, setRegistration] = useState<RegistrationOption | null>(null)
  /** Whether the operator picked the GSTIN: a catalog's registration loaded later never replaces that pick. */
  const picked = useRef(false)
  function pick(r: RegistrationOption) {
    picked.current = true
    setRegistration(r)
  }
  /** The catalog's registration becomes the one the return is asked for: at once when saved, when loaded only if none was picked. */
  function sellsUnder(registrationId: string, how: 'loaded' | 'saved') {
    if (how === 'loaded' && picked.current) return
    api<RegistrationOption>('GET', `/admin/gst/registrations/${registrationId}`).then(
      (a) => {
        if (how === 'loaded' && picked.current) return
        setRegistration(a.data)
      },
      () => {},
    )
  }
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="GSTR-1 and sellers" />
      <CardContent>
        <Box sx={{ mb: 2 }}>
          <CatalogPicker value={catalogId} onChange={setCatalogId} />
        </Box>
        {catalogId && <SellerForm key={catalogId} catalogId={catalogId} onRegistration={sellsUnder} />}
        <Gstr1Download registration={registration} onRegistration={pick} />
      </CardContent>
    </Card>
  )
}
