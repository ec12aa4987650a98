// Partners and their API keys (ADMIN): a key is shown once, when it is created; revoke; rotate the
// partner secret (shown once); the partner's webhook endpoint; edit its name, whether it is active,
// and its GSTIN as an e-commerce operator (TCS: its sales go to GSTR-1 Table 14).
import { useState } from 'react'
import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { Alert, Button, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { BooleanField, BooleanInput, Datagrid, DateField, Edit, List, Pagination, ReferenceManyField, SaveButton, SearchInput, Show, SimpleForm, TextField, TextInput, Title, Toolbar, required, useListContext, useRecordContext } from 'react-admin'
import { api } from './api.ts'
import { ActionButton, useSaveError } from './actions.tsx'
import { ResponsiveTable } from './responsive.tsx'

export const PartnerList = () => (
  <List filters={[<SearchInput key="q" source="q" alwaysOn />]} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => r.name} secondary={(r) => (r.isActive ? 'active' : 'inactive')} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" sortable={false} />
        <TextField source="id" label="Partner ID" sortable={false} />
        <TextField source="activeApiKeys" label="Active keys" sortable={false} />
          <TextField source="webhookUrl" sortable={false} />
        <BooleanField source="isActive" sortable={false} />
        <DateField source="createdAt" sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

/** One page of the partner's API keys (the API pages them, newest first). */
function ApiKeyRows({ partnerId }: { partnerId: string }) {
  const { data } = useListContext()
  return (
    <>
      {(data ?? []).map((key: Record<string, any>) => (
        <Stack key={key.id} direction="row" spacing={1} sx={{ my: 0.5, alignItems: 'center' }} data-testid="api-key">
          <Typography variant="body2">
            {key.name} · {key.prefix}… · catalog {key.catalogId} · {key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? 'never'}`}
          </Typography>
          {!key.revokedAt && <ActionButton label="Revoke" color="error" method="POST" path={`/admin/partners/${partnerId}/api-keys/${key.id}/revoke`} />}
        </Stack>
      ))}
    </>
  )
}

function PartnerDetail() {
  const partner = useRecordContext()
  const [secret, setSecret] = useState('')
  if (!partner) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">{partner.name}</Typography>
        <Typography variant="body2">
          {partner.id} · webhook {partner.webhookUrl ?? 'none'} · {partner.isActive ? 'active' : 'inactive'}
        </Typography>
        <Typography variant="body2" data-testid="partner-eco-gstin">
          E-commerce operator GSTIN: {partner.ecoGstin ?? 'none (not an operator collecting TCS)'}
        </Typography>
        {secret && (
          <Alert severity="warning" sx={{ my: 1 }} data-testid="shown-once">
            Shown once, copy it now: <code>{secret}</code>
          </Alert>
        )}
        <Stack direction="row" spacing={1} useFlexGap sx={{ my: 2, flexWrap: 'wrap' }}>
          <Button variant="outlined" size="small" component={Link} to={`/partners/${String(partner.id)}`}>
            Edit
          </Button>
          <ActionButton label="New API key" method="POST" path={`/admin/partners/${partner.id}/api-keys`} body={{ name: 'Created in the console' }} onDone={(a) => setSecret(String(a.data.apiKey))} />
          <ActionButton label="Rotate partner secret" color="warning" method="POST" path={`/admin/partners/${partner.id}/rotate-secret`} onDone={(a) => setSecret(String(a.data.secret))} />
          <ActionButton label="Send webhook ping" method="POST" path={`/admin/partners/${partner.id}/webhook/ping`} />
          <ActionButton label="Deactivate" color="error" method="POST" path={`/admin/partners/${partner.id}/deactivate`} />
        </Stack>
        <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
          API keys
        </Typography>
        <ReferenceManyField reference="apiKeys" target="partnerId" perPage={10} pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}>
          <ApiKeyRows partnerId={String(partner.id)} />
        </ReferenceManyField>
      </CardContent>
    </Card>
  )
}

export const PartnerShow = () => (
  <Show actions={false} component="div">
    <PartnerDetail />
  </Show>
)

/** Name, active, and the GSTIN as an e-commerce operator (empty: not one); the API's 400 stays on screen. */
export function PartnerEdit() {
  const { error, mutationOptions, transform } = useSaveError()
  return (
    <Edit mutationMode="pessimistic" mutationOptions={mutationOptions} transform={transform} redirect="show">
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <TextInput source="name" validate={required()} />
        <BooleanInput source="isActive" label="Active" helperText="Inactive: its API keys, secret and customer tokens stop working" />
        <TextInput
          source="ecoGstin"
          label="E-commerce operator GSTIN"
          helperText="The partner's TCS registration when its app collects the payment (14th character C or Z); its sales are reported in GSTR-1 Table 14. Empty: not an operator"
          sx={{ minWidth: 320 }}
        />
        {error && (
          <Alert severity="error" data-testid="partner-error" sx={{ whiteSpace: 'pre-line' }}>
            {error}
          </Alert>
        )}
      </SimpleForm>
    </Edit>
  )
}

/** A new partner: its secret and first API key are shown once, here. */
export function PartnerCreate() {
  const [name, setName] = useState('')
  const [catalogs, setCatalogs] = useState<{ id: string; name: string }[]>([])
  const [catalogId, setCatalogId] = useState('')
  const [created, setCreated] = useState<Record<string, any> | null>(null)
  useEffect(() => {
    void api<{ id: string; name: string }[]>('GET', '/admin/catalogs').then((a) => setCatalogs(a.data), () => setCatalogs([]))
  }, [])
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="New partner" />
      <CardContent>
        <Stack spacing={2} sx={{ maxWidth: 480 }}>
          <MuiTextField label="Name" value={name} onChange={(e) => setName(e.target.value)} />
          <MuiTextField select label="Catalog of its first API key" value={catalogId} onChange={(e) => setCatalogId(e.target.value)} helperText="Empty: the main catalog">
            {catalogs.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </MuiTextField>
          <ActionButton label="Create partner" variant="contained" disabled={!name.trim()} method="POST" path="/admin/partners" body={{ name, ...(catalogId ? { catalogId } : {}) }} onDone={(a) => setCreated(a.data)} />
          {created && (
            <Alert severity="warning" data-testid="shown-once">
              Shown once, copy them now. Partner ID <code>{created.partner.id}</code>, partner secret <code>{created.secret}</code>, API key <code>{created.apiKey.apiKey}</code>
            </Alert>
          )}
        </Stack>
      </CardContent>
    </Card>
  )
}
