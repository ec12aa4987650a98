// Cash on delivery per partner (ADMIN): its risk rules (an empty field is no limit) and the pincodes
// where it does not offer COD (block with a reason, unblock).
import { useEffect, useState } from 'react'
import { Alert, Box, Card, CardContent, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, DateField, FunctionField, ListBase, NumberInput, Pagination, type RaRecord, SaveButton, SimpleForm, TextField, TextInput, Title, Toolbar } from 'react-admin'
import { ActionButton, useApiAction } from './actions.tsx'
import { api } from './api.ts'
import { PartnerPicker } from './pickers.tsx'
import { STATIC_TOOLBAR } from './responsive.tsx'

const RULES = ['maxOpenCodOrders', 'maxCodValue', 'rtoLimit', 'rtoWindowDays', 'maxRefusedDeliveries', 'refusedWindowDays', 'firstOrderCap'] as const

/** The rules as PUT takes them: every field, an empty one as null (no limit). */
const rulesBody = (values: Record<string, unknown>) => Object.fromEntries(RULES.map((name) => [name, values[name] ?? null]))

function CodRulesForm({ partnerId }: { partnerId: string }) {
  const [rules, setRules] = useState<Record<string, unknown> | null>(null)
  const [loadError, setLoadError] = useState('')
  const { run, error } = useApiAction()
  useEffect(() => {
    api<Record<string, unknown>>('GET', `/admin/partners/${partnerId}/cod-rules`).then(
      (a) => setRules(a.data),
      (err: Error) => setLoadError(err.message),
    )
  }, [partnerId])
  if (loadError) return <Alert severity="error">{loadError}</Alert>
  if (!rules) return null
  return (
    <SimpleForm
      key={JSON.stringify(rules)}
      record={rules}
      onSubmit={async (values: Record<string, unknown>) => {
        const answer = await run<Record<string, unknown>>('PUT', `/admin/partners/${partnerId}/cod-rules`, rulesBody(values))
        if (answer) setRules(answer.data)
      }}
      toolbar={
        <Toolbar sx={STATIC_TOOLBAR}>
          <SaveButton label="Save rules" />
        </Toolbar>
      }
      sx={{ p: 0 }}
    >
      {/* No checks here on purpose: the API's 400 names the field and the rule. */}
      <NumberInput source="maxOpenCodOrders" label="Open COD orders per customer, at most" helperText="The new order included; empty: no limit" />
      <TextInput source="maxCodValue" label="To collect across open COD orders, at most (₹)" helperText="Empty: no limit" />
      <NumberInput source="rtoLimit" label="RTO orders before COD is refused" helperText="Set with the window, or neither" />
      <NumberInput source="rtoWindowDays" label="RTO window (days back)" />
      <NumberInput source="maxRefusedDeliveries" label="Parcels refused at the door before COD is refused" helperText="Counted apart from RTOs; set with the window, or neither" />
      <NumberInput source="refusedWindowDays" label="Refusals window (days back)" />
      <TextInput source="firstOrderCap" label="First order (none delivered yet), at most (₹)" helperText="Empty: no cap" />
      {error && (
        <Alert severity="error" data-testid="cod-rules-error" sx={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}
    </SimpleForm>
  )
}

function BlockPincode({ partnerId }: { partnerId: string }) {
  const [pincode, setPincode] = useState('')
  const [reason, setReason] = useState('')
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', my: 2 }}>
      <MuiTextField size="small" label="Pincode" value={pincode} onChange={(e) => setPincode(e.target.value)} slotProps={{ htmlInput: { inputMode: 'numeric' } }} sx={{ width: 140 }} />
      <MuiTextField size="small" label="Reason (back office only)" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ minWidth: 220, flex: 1 }} />
      <ActionButton
        label="Block COD"
        variant="contained"
        disabled={!pincode}
        method="POST"
        path={`/admin/partners/${partnerId}/cod-blocked-pincodes`}
        body={reason ? { pincode, reason } : { pincode }}
        onDone={() => {
          setPincode('')
          setReason('')
        }}
      />
    </Box>
  )
}

/** The partner's blocked pincodes: a list of its own (codBlockedPincodes), refreshed by every block and unblock. */
function BlockedPincodes({ partnerId }: { partnerId: string }) {
  return (
    <ListBase resource="codBlockedPincodes" filter={{ partnerId }} perPage={25} disableSyncWithLocation sort={{ field: 'pincode', order: 'ASC' }}>
      <Box data-testid="cod-blocked">
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<Typography variant="body2">COD is not blocked at any pincode of this partner.</Typography>}>
        <TextField source="pincode" sortable={false} />
        <TextField source="reason" sortable={false} emptyText="—" />
        <DateField source="createdAt" label="Since" sortable={false} />
        <FunctionField label="" render={(r: RaRecord) => <ActionButton label="Unblock" method="DELETE" path={`/admin/partners/${partnerId}/cod-blocked-pincodes/${r.pincode}`} aria-label={`Unblock ${r.pincode}`} />} />
      </Datagrid>
      </Box>
      <Pagination rowsPerPageOptions={[25, 50, 100]} />
    </ListBase>
  )
}

export function CashOnDelivery() {
  const [partnerId, setPartnerId] = useState('')
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="Cash on delivery" />
      <CardContent>
        <PartnerPicker value={partnerId} onChange={setPartnerId} />
        {partnerId && (
          <>
            <Typography variant="h6" sx={{ mt: 2 }}>
              Risk rules
            </Typography>
            <Typography variant="body2">Checked at serviceability, COD eligibility and order placement. An empty field is no limit.</Typography>
            <CodRulesForm key={partnerId} partnerId={partnerId} />
            <Typography variant="h6" sx={{ mt: 2 }}>
              Pincodes without COD
            </Typography>
            <Typography variant="body2">Whatever the delivery zone allows; customers are told only that COD is not available there.</Typography>
            <BlockPincode partnerId={partnerId} />
            <BlockedPincodes partnerId={partnerId} />
          </>
        )}
      </CardContent>
    </Card>
  )
}
