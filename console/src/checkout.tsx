// Checkout settings (ADMIN): coupons of a partner, serviceability (delivery) zones, and a partner's
// pricing rules (Reward Points, return window, prepaid discount).
import { useEffect, useState } from 'react'
import { Alert, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { BooleanField, BooleanInput, Create, Datagrid, DateTimeInput, Edit, List, NumberInput, ReferenceInput, SearchInput, SelectInput, SimpleForm, TextField, TextInput, Title, required } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { api } from './api.ts'

const partnerFilter = (
  <ReferenceInput key="partnerId" source="partnerId" reference="partners" alwaysOn>
    <SelectInput optionText="name" label="Partner" />
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
        <SelectInput optionText="name" label="Partner" validate={required()} />
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
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <TextField source="name" sortable={false} />
      <BooleanField source="serviceable" sortable={false} />
      <TextField source="standardMinDays" label="Standard days (min)" sortable={false} />
      <TextField source="standardMaxDays" label="(max)" sortable={false} />
      <BooleanField source="expressAvailable" sortable={false} />
      <BooleanField source="codAvailable" sortable={false} />
    </Datagrid>
  </List>
)

export const ZoneEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="name" />
      <BooleanInput source="serviceable" />
      <BooleanInput source="expressAvailable" />
      <BooleanInput source="codAvailable" />
      <TextInput source="codLimit" label="COD limit (₹)" />
      <TextInput source="codFee" label="COD fee (₹)" />
      <NumberInput source="cutoffHour" min={0} max={23} />
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
  const [partners, setPartners] = useState<{ id: string; name: string }[]>([])
  const [partnerId, setPartnerId] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState('')
  useEffect(() => {
    api<{ id: string; name: string }[]>('GET', '/admin/partners?limit=100').then(
      (a) => {
        setPartners(a.data)
        setPartnerId(a.data[0]?.id ?? '')
      },
      (err: Error) => setError(err.message),
    )
  }, [])
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
          <MuiTextField select size="small" label="Partner" value={partnerId} onChange={(e) => setPartnerId(e.target.value)} sx={{ maxWidth: 320 }}>
            {partners.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </MuiTextField>
          <MuiTextField label="Settings (JSON)" multiline minRows={8} value={text} onChange={(e) => setText(e.target.value)} error={body === undefined} helperText={body === undefined ? 'Not valid JSON' : ' '} />
          <ActionButton label="Save" variant="contained" disabled={body === undefined || !partnerId} method="PUT" path={`/admin/partners/${partnerId}/pricing`} body={body} />
        </Stack>
      </CardContent>
    </Card>
  )
}
