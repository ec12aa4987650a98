// Checkout settings (ADMIN): coupons of a partner, serviceability (delivery) zones with their
// pincode prefixes (create; add or move prefixes), and a partner's pricing rules (Reward Points, return window, prepaid discount).
import { useEffect, useState } from 'react'
import { Alert, Card, CardContent, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { ArrayInput, AutocompleteInput, BooleanField, BooleanInput, Create, Datagrid, DateTimeInput, Edit, FunctionField, List, NumberInput, type RaRecord, ReferenceInput, SearchInput, SelectInput, SimpleForm, SimpleFormIterator, TextField, TextInput, Title, required, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { api } from './api.ts'
import { PartnerPicker } from './pickers.tsx'
import { ResponsiveTable } from './responsive.tsx'

const partnerFilter = (
  <ReferenceInput key="partnerId" source="partnerId" reference="partners" alwaysOn>
    <AutocompleteInput optionText="name" label="Partner" sx={{ minWidth: 240 }} />
  </ReferenceInput>
)

export const CouponList = () => (
  <List filters={[partnerFilter, <SearchInput key="q" source="q" placeholder="Code" alwaysOn />]} perPage={25} exporter={false}>
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <TextField source="code" sortable={false} />
      <TextField source="kind" sortable={false} />
      <TextField source="value" sortable={false} />
      <TextField source="minOrderValue" sortable={false} />
          <TextField source="usedCount" label="Used" sortable={false} />
          <TextField source="validUntil" sortable={false} />
      <BooleanField source="isActive" sortable={false} />
    </Datagrid>
  </List>
)

const money = (value: string) => (value && !/^\d{1,13}(\.\d{1,2})?$/.test(value) ? 'An amount like 100.00' : undefined)

export const CouponCreate = () => (
  <Create redirect="list">
    <SimpleForm>
      <ReferenceInput source="partnerId" reference="partners">
        <AutocompleteInput optionText="name" label="Partner" validate={required()} />
      </ReferenceInput>
      <TextInput source="code" validate={required()} helperText="3 to 40 letters, digits, - or _" />
      <SelectInput source="kind" choices={[{ id: 'PERCENT', name: 'Percent off' }, { id: 'FLAT', name: 'Rupees off' }]} validate={required()} />
      <TextInput source="value" validate={[required(), money]} helperText="Percent, or rupees like 100.00" />
      <TextInput source="minOrderValue" validate={money} label="Minimum order (₹)" />
      <DateTimeInput source="validUntil" />
    </SimpleForm>
  </Create>
)

export const CouponEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="code" disabled />
      <BooleanInput source="isActive" />
      <DateTimeInput source="validUntil" />
    </SimpleForm>
  </Edit>
)

export const ZoneList = () => (
  <List filters={[<SearchInput key="q" source="q" placeholder="Name or pincode" alwaysOn />]} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => `${r.name}${r.serviceable ? '' : ' (not serviceable)'}`} secondary={(r) => `Prefixes: ${(r.pincodes as { prefix: string }[]).map((p) => p.prefix).join(', ')}`} link="edit">
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" sortable={false} />
        <BooleanField source="serviceable" sortable={false} />
        <TextField source="standardMinDays" label="Standard days (min)" sortable={false} />
        <TextField source="standardMaxDays" label="(max)" sortable={false} />
        <BooleanField source="expressAvailable" sortable={false} />
        <BooleanField source="codAvailable" sortable={false} />
        <FunctionField label="Prefixes" render={(r: RaRecord) => (r.pincodes as { prefix: string }[]).map((p) => p.prefix).join(', ')} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const prefix = (value: string) => (value && !/^[1-9][0-9]{0,5}$/.test(value) ? '1 to 6 digits of a PIN code' : undefined)

/** Pincode prefixes ({prefix, city, state}); a prefix mapped to another zone moves to this one. */
const PrefixesInput = ({ source, label }: { source: string; label: string }) => (
  <ArrayInput source={source} label={label}>
    <SimpleFormIterator inline disableReordering>
      <TextInput source="prefix" validate={[required(), prefix]} helperText="e.g. 5600" sx={{ minWidth: 130 }} />
      <TextInput source="city" validate={required()} />
      <TextInput source="state" validate={required()} />
    </SimpleFormIterator>
  </ArrayInput>
)

const SlabsInput = ({ source, label }: { source: string; label: string }) => (
  <ArrayInput source={source} label={label}>
    <SimpleFormIterator inline disableReordering>
      <NumberInput source="upToGrams" label="Up to (grams)" validate={required()} min={1} step={1} />
      <TextInput source="charge" label="Charge (₹)" validate={[required(), money]} />
    </SimpleFormIterator>
  </ArrayInput>
)

const NEW_ZONE = {
  serviceable: true,
  standardSlabs: [{ upToGrams: 500, charge: '40.00' }, { upToGrams: 5000, charge: '99.00' }],
  standardMinDays: 3,
  standardMaxDays: 5,
  expressAvailable: false,
  expressSlabs: [],
  expressMinDays: 1,
  expressMaxDays: 2,
  freeShippingThreshold: null,
  cutoffHour: 12,
  codAvailable: true,
  codLimit: '5000.00',
  codFee: '0.00',
  pincodes: [{ prefix: '', city: '', state: '' }],
}

export const ZoneCreate = () => (
  <Create redirect="list">
    <SimpleForm defaultValues={NEW_ZONE}>
      <TextInput source="name" validate={required()} />
      <BooleanInput source="serviceable" />
      <PrefixesInput source="pincodes" label="Pincode prefixes" />
      <SlabsInput source="standardSlabs" label="Standard delivery charges by weight" />
      <NumberInput source="standardMinDays" label="Standard days (min)" validate={required()} min={0} max={60} />
      <NumberInput source="standardMaxDays" label="Standard days (max)" validate={required()} min={0} max={60} />
      <BooleanInput source="expressAvailable" />
      <SlabsInput source="expressSlabs" label="Express charges by weight" />
      <NumberInput source="expressMinDays" label="Express days (min)" validate={required()} min={0} max={60} />
      <NumberInput source="expressMaxDays" label="Express days (max)" validate={required()} min={0} max={60} />
      <TextInput source="freeShippingThreshold" label="Free shipping from (₹)" validate={money} helperText="Empty: never free" />
      <NumberInput source="cutoffHour" validate={required()} min={0} max={23} helperText="Orders after this hour (India) ship the next day" />
      <BooleanInput source="codAvailable" />
      <TextInput source="codLimit" label="COD limit (₹)" validate={[required(), money]} />
      <TextInput source="codFee" label="COD fee (₹)" validate={[required(), money]} />
    </SimpleForm>
  </Create>
)

/** The prefixes the zone has now (PATCH cannot remove one: map it to another zone instead). */
function ZonePrefixes() {
  const record = useRecordContext()
  const pincodes = (record?.pincodes ?? []) as { prefix: string; city: string; state: string }[]
  return (
    <div data-testid="zone-prefixes">
      Pincode prefixes: {pincodes.length === 0 ? 'none' : pincodes.map((p) => `${p.prefix} (${p.city}, ${p.state})`).join(' · ')}
    </div>
  )
}

/**
 * `addPincodes` is sent as the API's `pincodes` (added or moved here); left empty, nothing is sent.
 * An emptied free-shipping amount is null: never free.
 */
const zoneChanges = ({ addPincodes, ...rest }: Record<string, any>) => {
  const changes = addPincodes?.length ? { ...rest, pincodes: addPincodes } : rest
  return changes.freeShippingThreshold === '' ? { ...changes, freeShippingThreshold: null } : changes
}

export const ZoneEdit = () => (
  <Edit mutationMode="pessimistic" transform={zoneChanges}>
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <BooleanInput source="serviceable" />
      <SlabsInput source="standardSlabs" label="Standard delivery charges by weight" />
      <NumberInput source="standardMinDays" label="Standard days (min)" validate={required()} min={0} max={60} />
      <NumberInput source="standardMaxDays" label="Standard days (max)" validate={required()} min={0} max={60} />
      <BooleanInput source="expressAvailable" />
      <SlabsInput source="expressSlabs" label="Express charges by weight" />
      <NumberInput source="expressMinDays" label="Express days (min)" validate={required()} min={0} max={60} />
      <NumberInput source="expressMaxDays" label="Express days (max)" validate={required()} min={0} max={60} />
      <TextInput source="freeShippingThreshold" label="Free shipping from (₹)" validate={money} helperText="Empty: never free" />
      <NumberInput source="cutoffHour" validate={required()} min={0} max={23} helperText="Orders after this hour (India) ship the next day" />
      <BooleanInput source="codAvailable" />
      <TextInput source="codLimit" label="COD limit (₹)" validate={[required(), money]} />
      <TextInput source="codFee" label="COD fee (₹)" validate={[required(), money]} />
      <ZonePrefixes />
      <PrefixesInput source="addPincodes" label="Add or move prefixes here" />
    </SimpleForm>
  </Edit>
)

/** The text as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A partner's pricing rules as the API answers them; saved back whole (PUT). */
export function PricingRules() {
  const [partnerId, setPartnerId] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState('')
  useEffect(() => {
    if (!partnerId) return
    api('GET', `/admin/partners/${partnerId}/pricing`).then(
      (a) => setText(JSON.stringify(a.data, null, 2)),
      (err: Error) => setError(err.message),
    )
  }, [partnerId])
  const body = parsedJson(text)
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="Pricing rules" />
      <CardContent>
        <Typography variant="h6">Pricing rules of a partner</Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <Stack spacing={2} sx={{ mt: 2 }}>
          <PartnerPicker value={partnerId} onChange={setPartnerId} />
          <MuiTextField label="Settings (JSON)" multiline minRows={8} value={text} onChange={(e) => setText(e.target.value)} error={body === undefined} helperText={body === undefined ? 'Not valid JSON' : ' '} />
          <ActionButton label="Save" variant="contained" disabled={body === undefined || !partnerId} method="PUT" path={`/admin/partners/${partnerId}/pricing`} body={body} />
        </Stack>
      </CardContent>
    </Card>
  )
}
