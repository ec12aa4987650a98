// Stock locations (CATALOG and ADMIN; issue #41 step 6, decision 0043): a catalog's locations (the
// list; create, warned before the catalog's first, which takes its whole stock as an opening
// balance; edit, close), and the stock at one location: its levels a page at a time, units received
// or a count adjusted, units transferred to another location of the catalog. The ledger of every
// move is ledger.tsx. The API's 400 and 409 (naming `registrationId`, a location holding units)
// stay beside the form that was refused.
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { useWatch } from 'react-hook-form'
import { Alert, Autocomplete, Box, Button, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  ListBase,
  NumberField,
  NumberInput,
  Pagination,
  type RaRecord,
  ReferenceField,
  ReferenceInput,
  SaveButton,
  SelectInput,
  Show,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  required,
  useGetList,
  usePermissions,
  useRecordContext,
} from 'react-admin'
import { useApiAction, useSaveError } from './actions.tsx'
import { api, query } from './api.ts'
import { CatalogListActions, catalogFilter } from './catalog.tsx'
import { ResponsiveTable } from './responsive.tsx'
import type { AdminVariant, ProductOption } from './variant-grid.ts'

export interface StockLocation {
  id: string
  catalogId: string
  name: string
  addressLine1: string
  city: string
  state: string
  pincode: string
  registrationId: string | null
  pickupName: string | null
  isActive: boolean
  position: number
  unitsOnHand: number
}

const placeOf = (r: RaRecord) => `${r.city}, ${r.state} ${r.pincode}`
const units = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`

/** The location's GST registration: its GSTIN for ADMIN (who may read registrations), its id for CATALOG; none: the catalog's seller. */
function RegistrationOf() {
  const location = useRecordContext()
  const { permissions } = usePermissions()
  if (!location) return null
  if (!location.registrationId) return <>The catalog's seller</>
  if (permissions !== 'ADMIN') return <>{location.registrationId}</>
  return (
    <ReferenceField source="registrationId" reference="gstRegistrations" link="edit">
      <FunctionField render={(r: RaRecord) => `${r.gstin} (${r.stateName})`} />
    </ReferenceField>
  )
}

const NoLocations = () => (
  <Typography variant="body2" sx={{ p: 2 }} data-testid="no-locations">
    No stock locations yet: the catalog's stock is one number per product (and per variant). The first location made takes all of it as its opening balance.
  </Typography>
)

export const LocationList = () => (
  <List filters={[catalogFilter]} perPage={25} exporter={false} actions={<CatalogListActions />} title="Stock locations" empty={false}>
    <ResponsiveTable primary={(r) => `${r.name}${r.isActive ? '' : ' (closed)'}`} secondary={(r) => `${placeOf(r)} · ${units(r.unitsOnHand)}${r.pickupName ? ` · pickup ${r.pickupName}` : ''}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoLocations />}>
        <TextField source="name" sortable={false} />
        <FunctionField label="City, state, pincode" render={placeOf} />
        <FunctionField label="GST registration" render={() => <RegistrationOf />} />
        <TextField source="pickupName" label="Pickup name" sortable={false} emptyText="—" />
        <BooleanField source="isActive" label="Active" sortable={false} />
        <NumberField source="unitsOnHand" label="Units" sortable={false} />
        <NumberField source="position" sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const registrationHelp = "One of the location's state; empty: the catalog's GST seller, which must then be in this state"

/** ADMIN picks a GST registration, searched by GSTIN or name; CATALOG (who may not list them) gives its id. */
function RegistrationInput() {
  const { permissions } = usePermissions()
  if (permissions !== 'ADMIN') return <TextInput source="registrationId" label="GST registration id" helperText={`${registrationHelp}. Only an ADMIN can list registrations`} />
  return (
    <ReferenceInput source="registrationId" reference="gstRegistrations">
      <AutocompleteInput label="GST registration" optionText={(r: RaRecord) => `${r.gstin} · ${r.legalName} (${r.stateName})`} helperText={registrationHelp} sx={{ minWidth: { sm: 420 } }} />
    </ReferenceInput>
  )
}

const LocationInputs = () => (
  <>
    <TextInput source="name" validate={required()} helperText="Bhiwandi warehouse, Indiranagar store" />
    <TextInput source="addressLine1" label="Address" validate={required()} fullWidth />
    <TextInput source="city" validate={required()} />
    <TextInput source="state" validate={required()} helperText="The pincode's state" />
    <TextInput source="pincode" validate={required()} />
    <RegistrationInput />
    <TextInput source="pickupName" label="Pickup name" helperText="The carrier's name for it as a pickup location; empty: the configured one" />
    <NumberInput source="position" min={0} step={1} helperText="Its place among the catalog's locations: allocation's tie-break (0 first)" />
  </>
)

const SaveError = ({ error }: { error: string }) =>
  error ? (
    <Alert severity="error" data-testid="location-error" sx={{ whiteSpace: 'pre-line', mt: 1 }}>
      {error}
    </Alert>
  ) : null

const confirmed = (value: unknown) => (value === true ? undefined : "Switch this on to confirm: the catalog's stock moves here")

/**
 * Before the catalog's first location: saving it moves every unit in stock there, and the catalog
 * keeps its stock at locations from then on. Shown on a fresh read of the catalog's locations only,
 * and the operator confirms it (a switch) before it saves.
 */
function FirstLocationWarning() {
  const catalogId = useWatch({ name: 'catalogId' }) as string | undefined
  const { total, isFetching, error } = useGetList('locations', { filter: { catalogId }, pagination: { page: 1, perPage: 1 }, sort: { field: 'position', order: 'ASC' } }, { enabled: Boolean(catalogId) })
  if (!catalogId || isFetching || error || total !== 0) return null
  return (
    <Box data-testid="first-location-warning" sx={{ mb: 2 }}>
      <Alert severity="warning">
        This is the catalog's first stock location. Saving it moves every unit the catalog has in stock here, as its opening balance (a RECEIVE of each product's and variant's stock, "Opening balance", in the ledger). From then on the catalog's stock is kept at its
        locations: it changes by receipts, adjustments and transfers here, and by orders; the stock fields of products and variants can no longer be written.
      </Alert>
      <BooleanInput source="openingBalance" label="Move the catalog's stock to this location" validate={confirmed} />
    </Box>
  )
}

const NEW_LOCATION = { position: 0 }

export function LocationCreate() {
  const { error, mutationOptions, transform } = useSaveError()
  return (
    <Create
      redirect="show"
      title="New stock location"
      mutationOptions={mutationOptions}
      transform={(data: Record<string, any>) => {
        const { openingBalance: _confirmation, ...body } = data
        return transform(body)
      }}
    >
      <SimpleForm defaultValues={NEW_LOCATION}>
        <ReferenceInput source="catalogId" reference="catalogs">
          <SelectInput optionText="name" label="Catalog" validate={required()} />
        </ReferenceInput>
        <FirstLocationWarning />
        <LocationInputs />
        <SaveError error={error} />
      </SimpleForm>
    </Create>
  )
}

const LocationTitle = ({ prefix }: { prefix: string }) => {
  const location = useRecordContext<StockLocation>()
  return <>{location ? `${prefix} ${location.name}` : prefix}</>
}

export function LocationEdit() {
  const { error, mutationOptions, transform } = useSaveError()
  return (
    <Edit mutationMode="pessimistic" redirect="show" mutationOptions={mutationOptions} transform={transform} title={<LocationTitle prefix="Edit" />}>
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <LocationInputs />
        <BooleanInput source="isActive" label="Active (open to allocation)" helperText="Closing it is refused while it holds units: transfer them first" />
        <SaveError error={error} />
      </SimpleForm>
    </Edit>
  )
}

export const LocationShow = () => (
  <Show actions={false} component="div" title={<LocationTitle prefix="Stock at" />}>
    <LocationStock />
  </Show>
)

/** A product as the back office answers it, with its variants (the default one for a product without options). */
interface Product {
  id: string
  name: string
  sku: string
  options: ProductOption[]
  variants: AdminVariant[]
}

/** The unit a move or transfer is of: a product and, for a product with options, one of its variants. */
interface Unit {
  product: Product
  variantId: string
}

const unitName = (u: Unit) => {
  const variant = u.product.variants.find((v) => v.id === u.variantId)
  return u.product.options.length > 0 && variant ? `${u.product.name} · ${variant.title ?? variant.sku}` : u.product.name
}
/** The unit as the API takes it: a product without options by its id alone (its default variant). */
const unitBody = (u: Unit) => ({ productId: u.product.id, ...(u.product.options.length > 0 ? { variantId: u.variantId } : {}) })

/** The ledger of a location, or of one of its units. */
export const ledgerLink = (filter: Record<string, string>) => `/inventoryMoves?filter=${encodeURIComponent(JSON.stringify(filter))}`

function LocationStock() {
  const location = useRecordContext<StockLocation>()
  const [unit, setUnit] = useState<Unit | null>(null)
  const [problem, setProblem] = useState('')
  if (!location) return null
  /** A level's row chooses its unit for the forms below. */
  const choose = (level: RaRecord) =>
    api<Product>('GET', `/admin/products/${level.productId}`).then(
      (a) => {
        setProblem('')
        setUnit({ product: a.data, variantId: level.variantId })
      },
      (err: Error) => setProblem(err.message),
    )
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <LocationSummary location={location} />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            Units held here
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Units no order has taken yet (an order's units leave the level when it is placed). Choose a row to receive, adjust or transfer it below.
          </Typography>
          <Levels location={location} onChoose={choose} />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            Receive, adjust or transfer
          </Typography>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <UnitPicker catalogId={location.catalogId} value={unit} onChange={setUnit} />
            {problem && <Alert severity="error">{problem}</Alert>}
            <ReceiveOrAdjust location={location} unit={unit} />
            <TransferUnits location={location} unit={unit} />
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  )
}

function LocationSummary({ location }: { location: StockLocation }) {
  return (
    <Card data-testid="location-summary">
      <CardContent>
        <Typography variant="h6" component="h2">
          {location.name}
          {location.isActive ? '' : ' (closed)'}
        </Typography>
        <Typography variant="body2">
          {location.addressLine1}, {placeOf(location)}
        </Typography>
        <Typography variant="body2">
          GST registration: <RegistrationOf /> · pickup name: {location.pickupName ?? 'the configured one'} · position {location.position}
        </Typography>
        <Typography variant="body2" data-testid="location-units">
          Holds {units(location.unitsOnHand)}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" size="small" component={Link} to={`/locations/${location.id}`}>
            Edit location
          </Button>
          <Button size="small" component={Link} to={ledgerLink({ catalogId: location.catalogId, locationId: location.id })}>
            Its moves in the ledger
          </Button>
        </Stack>
      </CardContent>
    </Card>
  )
}

const levelName = (r: RaRecord) => `${r.name}${r.variantTitle ? ` · ${r.variantTitle}` : ''}`

/** The location's levels, a server page at a time (locationStock), refreshed by every move. */
function Levels({ location, onChoose }: { location: StockLocation; onChoose: (level: RaRecord) => void }) {
  return (
    <ListBase resource="locationStock" filter={{ locationId: location.id }} perPage={25} disableSyncWithLocation sort={{ field: 'name', order: 'ASC' }}>
      <Box data-testid="levels">
        <ResponsiveTable primary={levelName} secondary={(r) => `${r.sku} · ${units(r.onHand)}`} link={(_id, _resource, r) => {
            onChoose(r)
            return false
          }}>
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<Typography variant="body2">No units here.</Typography>}>
            <FunctionField label="Product" render={levelName} />
            <TextField source="sku" label="SKU" sortable={false} />
            <NumberField source="onHand" label="Units" sortable={false} />
            <FunctionField
              label="Actions"
              render={(r: RaRecord) => (
                <Stack direction="row" spacing={1}>
                  <Button size="small" onClick={() => onChoose(r)} aria-label={`Choose ${levelName(r)}`}>
                    Choose
                  </Button>
                  <Button size="small" component={Link} to={ledgerLink({ catalogId: location.catalogId, locationId: location.id, productId: r.productId })} aria-label={`Moves of ${levelName(r)}`}>
                    Moves
                  </Button>
                </Stack>
              )}
            />
          </Datagrid>
        </ResponsiveTable>
      </Box>
      <Pagination rowsPerPageOptions={[25, 50, 100]} />
    </ListBase>
  )
}

/** A product of the catalog, searched on the server as the operator types (a page of 20), and its variant when it has options. */
function UnitPicker({ catalogId, value, onChange }: { catalogId: string; value: Unit | null; onChange: (u: Unit | null) => void }) {
  const [typed, setTyped] = useState('')
  const [options, setOptions] = useState<Product[]>([])
  useEffect(() => {
    const timer = setTimeout(() => {
      api<Product[]>('GET', `/admin/catalogs/${catalogId}/products${query({ limit: 20, search: typed.trim() })}`).then(
        (a) => setOptions(a.data),
        () => setOptions([]),
      )
    }, 250)
    return () => clearTimeout(timer)
  }, [catalogId, typed])
  const product = value?.product ?? null
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} data-testid="unit-picker">
      <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 360px)', flex: 1 }}>
        <Autocomplete
          options={product && !options.some((o) => o.id === product.id) ? [product, ...options] : options}
          value={product}
          getOptionLabel={(p) => `${p.name} (${p.sku})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(found) => found}
          onInputChange={(_, text, reason) => reason === 'input' && setTyped(text)}
          onChange={(_, picked) => onChange(picked ? { product: picked, variantId: picked.options.length > 0 ? '' : (picked.variants[0]?.id ?? '') } : null)}
          renderInput={(params) => <MuiTextField {...params} size="small" label="Product" placeholder="Type a name, brand or SKU" />}
        />
      </Box>
      {product && product.options.length > 0 && (
        <MuiTextField select size="small" label="Variant" value={value?.variantId ?? ''} onChange={(e) => onChange({ product, variantId: e.target.value })} sx={{ width: 240 }}>
          {product.variants.map((v) => (
            <MenuItem key={v.id} value={v.id}>
              {v.title ?? v.sku} ({v.sku})
            </MenuItem>
          ))}
        </MuiTextField>
      )}
    </Stack>
  )
}

/** What is wrong with the unit chosen, before asking the API. */
const unitProblem = (unit: Unit | null) => (!unit ? 'Choose a product (or a row above)' : !unit.variantId ? `Choose the variant of ${unit.product.name}` : '')
const WHOLE = /^-?\d{1,7}$/

const Problem = ({ text, testId }: { text: string; testId: string }) =>
  text ? (
    <Alert severity="error" data-testid={testId} sx={{ whiteSpace: 'pre-line' }}>
      {text}
    </Alert>
  ) : null

/** RECEIVE (units arrived, above zero) or ADJUST (a count corrected, signed), with the reason the ledger keeps. */
function ReceiveOrAdjust({ location, unit }: { location: StockLocation; unit: Unit | null }) {
  const [kind, setKind] = useState<'RECEIVE' | 'ADJUST'>('RECEIVE')
  const [quantity, setQuantity] = useState('')
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState('')
  const { run, busy, error } = useApiAction()
  async function submit() {
    const n = Number(quantity.trim())
    const wrong =
      unitProblem(unit) ||
      (!WHOLE.test(quantity.trim()) || n === 0 ? 'The quantity is a whole number of units, not 0' : '') ||
      (kind === 'RECEIVE' && n < 0 ? 'Units received are above 0: a count corrected down is an adjustment' : '') ||
      (!reason.trim() ? 'Give the reason the ledger keeps (a purchase order, a count)' : '')
    setProblem(wrong)
    if (wrong || !unit) return
    const answer = await run('POST', `/admin/locations/${location.id}/stock`, { ...unitBody(unit), kind, quantity: n, reason: reason.trim() })
    if (answer) {
      setQuantity('')
      setReason('')
    }
  }
  return (
    <Box component="section" aria-labelledby="receive-adjust" sx={{ borderTop: 1, borderColor: 'divider', pt: 2 }} data-testid="receive-adjust">
      <Typography variant="subtitle1" component="h3" id="receive-adjust" sx={{ fontWeight: 'bold' }}>
        Receive or adjust{unit ? `: ${unitName(unit)}` : ''}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ my: 1, flexWrap: 'wrap' }}>
        <MuiTextField select size="small" label="Kind" value={kind} onChange={(e) => setKind(e.target.value as 'RECEIVE' | 'ADJUST')} sx={{ width: 240 }}>
          <MenuItem value="RECEIVE">Receive (units arrived)</MenuItem>
          <MenuItem value="ADJUST">Adjust (a count corrected)</MenuItem>
        </MuiTextField>
        <MuiTextField
          size="small"
          label={kind === 'RECEIVE' ? 'Units received' : 'Units to add or take (−)'}
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          helperText={kind === 'RECEIVE' ? 'Above 0' : 'Signed: -3 takes three off'}
          slotProps={{ htmlInput: { inputMode: kind === 'RECEIVE' ? 'numeric' : 'text' } }}
          sx={{ width: 200 }}
        />
        <MuiTextField size="small" label="Reason" required value={reason} onChange={(e) => setReason(e.target.value)} helperText="Kept in the ledger: PO 4471 from Surat, cycle count" sx={{ flex: 1, minWidth: 200 }} />
      </Stack>
      <Button variant="contained" disabled={busy} onClick={submit}>
        {kind === 'RECEIVE' ? 'Receive units' : 'Adjust units'}
      </Button>
      <Problem text={problem || error} testId="stock-move-error" />
    </Box>
  )
}

/** Units of the chosen unit moved from this location to another of the catalog (TRANSFER_OUT and TRANSFER_IN). */
function TransferUnits({ location, unit }: { location: StockLocation; unit: Unit | null }) {
  const { data: others = [] } = useGetList<StockLocation>('locations', { filter: { catalogId: location.catalogId }, pagination: { page: 1, perPage: 100 }, sort: { field: 'position', order: 'ASC' } })
  const [toLocationId, setTo] = useState('')
  const [quantity, setQuantity] = useState('')
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState('')
  const { run, busy, error } = useApiAction()
  const destinations = others.filter((l) => l.id !== location.id)
  async function submit() {
    const n = Number(quantity.trim())
    const wrong =
      unitProblem(unit) ||
      (!toLocationId ? 'Choose the location the units go to' : '') ||
      (!WHOLE.test(quantity.trim()) || n <= 0 ? 'The quantity is a whole number of units above 0' : '') ||
      (!reason.trim() ? 'Give the reason the ledger keeps' : '')
    setProblem(wrong)
    if (wrong || !unit) return
    const answer = await run('POST', `/admin/locations/${location.id}/transfers`, { ...unitBody(unit), toLocationId, quantity: n, reason: reason.trim() })
    if (answer) {
      setQuantity('')
      setReason('')
    }
  }
  return (
    <Box component="section" aria-labelledby="transfer" sx={{ borderTop: 1, borderColor: 'divider', pt: 2 }} data-testid="transfer">
      <Typography variant="subtitle1" component="h3" id="transfer" sx={{ fontWeight: 'bold' }}>
        Transfer to another location{unit ? `: ${unitName(unit)}` : ''}
      </Typography>
      {destinations.length === 0 ? (
        <Typography variant="body2">The catalog has no other location.</Typography>
      ) : (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ my: 1, flexWrap: 'wrap' }}>
            <MuiTextField select size="small" label="To" value={toLocationId} onChange={(e) => setTo(e.target.value)} sx={{ width: 240 }}>
              {destinations.map((l) => (
                <MenuItem key={l.id} value={l.id} disabled={!l.isActive}>
                  {l.name} ({l.city}){l.isActive ? '' : ': closed'}
                </MenuItem>
              ))}
            </MuiTextField>
            <MuiTextField size="small" label="Units to transfer" value={quantity} onChange={(e) => setQuantity(e.target.value)} slotProps={{ htmlInput: { inputMode: 'numeric' } }} sx={{ width: 200 }} />
            <MuiTextField size="small" label="Reason" required value={reason} onChange={(e) => setReason(e.target.value)} helperText="Kept in the ledger" sx={{ flex: 1, minWidth: 200 }} />
          </Stack>
          <Button variant="contained" disabled={busy} onClick={submit}>
            Transfer units
          </Button>
        </>
      )}
      <Problem text={problem || error} testId="transfer-error" />
    </Box>
  )
}
