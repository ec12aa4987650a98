// Returns: the review queue (oldest waiting first is the API's order) and one request with the
// customer's images: review, approve (optionally a lower amount), reject, ask for information,
// start the refund.
import { useState } from 'react'
import { Card, CardContent, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, List, SearchInput, SelectInput, Show, TextField, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { Images } from './images.tsx'
import { Rows } from './orders.tsx'
import { ResponsiveTable } from './responsive.tsx'

const STATUSES = ['REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'APPROVED', 'REJECTED', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'RESOLVED']
const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Reason or order number" />,
  <SelectInput key="status" source="status" choices={STATUSES.map((id) => ({ id, name: id }))} alwaysOn />,
]

export const ReturnList = () => (
  <List filters={filters} filterDefaultValues={{ status: 'REQUESTED' }} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => `${r.reason} · ₹${r.requestedAmount}`} secondary={(r) => `${r.status} · ${r.requestedResolution}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" sortable={false} />
        <TextField source="status" sortable={false} />
        <TextField source="reason" sortable={false} />
        <TextField source="requestedResolution" sortable={false} />
        <TextField source="requestedAmount" label="Amount (₹)" sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

function ReturnActions() {
  const request = useRecordContext()
  const [note, setNote] = useState('')
  const [amount, setAmount] = useState('')
  if (!request) return null
  const path = `/admin/returns/${request.id}/status`
  const withNote = (status: string, extra: object = {}) => ({ status, ...(note ? { note } : {}), ...extra })
  return (
    <Stack spacing={1} sx={{ my: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <MuiTextField size="small" label="Note to the customer" value={note} onChange={(e) => setNote(e.target.value)} sx={{ flex: 1 }} />
        <MuiTextField size="small" label="Approved amount (₹, optional)" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <ActionButton label="Start review" method="POST" path={path} body={withNote('UNDER_REVIEW')} />
        <ActionButton label="Approve" color="success" method="POST" path={path} body={withNote('APPROVED', amount ? { approvedAmount: amount } : {})} />
        <ActionButton label="Reject" color="error" method="POST" path={path} body={withNote('REJECTED')} />
        <ActionButton label="Ask for information" method="POST" path={path} body={withNote('NEEDS_INFO')} />
        <ActionButton label="Start refund" variant="contained" method="POST" path={path} body={withNote('REFUND_PENDING')} />
      </Stack>
    </Stack>
  )
}

function ReturnDetail() {
  const request = useRecordContext()
  if (!request) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">
          Return: <span data-testid="return-status">{request.status}</span>
        </Typography>
        <Typography variant="body2">
          Order {request.orderId} · {request.requestedResolution} · requested ₹{request.requestedAmount}
          {request.approvedAmount ? ` · approved ₹${request.approvedAmount}` : ''}
        </Typography>
        <Typography sx={{ mt: 1 }}>
          {request.reason}: {request.detail}
        </Typography>
        <Images urls={request.imageUrls} />
        <ReturnActions />
        <Rows title="Items" rows={request.items} columns={['orderItemId', 'quantity', 'reason', 'requestedAmount']} />
        <Rows title="Refunds" rows={request.refunds} columns={['id', 'status', 'amount', 'createdAt']} testId="return-refunds" />
        <Rows title="History" rows={request.history ?? request.statusHistory} columns={['status', 'actor', 'note', 'at']} />
      </CardContent>
    </Card>
  )
}

export const ReturnShow = () => (
  <Show actions={false} component="div">
    <ReturnDetail />
  </Show>
)

