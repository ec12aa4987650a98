// Orders: the server-paged list (status, partner, search by number, id or phone) and one order with
// its lines, payments, refunds, shipments, status history and events; moves along the machine.
import { useEffect, useState } from 'react'
import { Box, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, DateField, List, SearchInput, SelectInput, Show, TextField, TextInput, useRecordContext, usePermissions } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { api, query } from './api.ts'
import { ResponsiveTable } from './responsive.tsx'

export const ORDER_STATUSES = ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'DELIVERY_FAILED', 'RTO', 'CANCELLED']
const choices = (values: string[]) => values.map((id) => ({ id, name: id }))

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Number, id or phone" />,
  <SelectInput key="status" source="status" choices={choices(ORDER_STATUSES)} alwaysOn />,
  <TextInput key="partnerId" source="partnerId" label="Partner ID" />,
]

export const OrderList = () => (
  <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => r.orderNumber} secondary={(r) => `${r.status} · ₹${r.totalAmount} · ${r.paymentMode}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false} sort={undefined}>
        <TextField source="orderNumber" sortable={false} />
        <TextField source="status" sortable={false} />
        <TextField source="paymentStatus" sortable={false} />
        <TextField source="paymentMode" sortable={false} />
        <TextField source="totalAmount" label="Total (₹)" sortable={false} />
        <DateField source="createdAt" showTime sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

/** A small table of rows with the given columns; empty: "none". */
export function Rows({ title, rows, columns, testId }: { title: string; rows: Record<string, any>[] | undefined; columns: string[]; testId?: string }) {
  return (
    <Box sx={{ mb: 2, overflowX: 'auto' }} data-testid={testId}>
      <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
        {title}
      </Typography>
      {!rows || rows.length === 0 ? (
        <Typography variant="body2">none</Typography>
      ) : (
        <table style={{ borderCollapse: 'collapse', fontSize: 13, minWidth: '100%' }}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} align="left" style={{ padding: '2px 8px', borderBottom: '1px solid #ddd' }}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={row.id ?? i}>
                {columns.map((c) => (
                  <td key={c} style={{ padding: '2px 8px' }}>
                    {typeof row[c] === 'object' && row[c] !== null ? JSON.stringify(row[c]) : String(row[c] ?? '')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Box>
  )
}

function OrderEvents({ orderId }: { orderId: string }) {
  const { permissions } = usePermissions()
  const [events, setEvents] = useState<Record<string, any>[] | string>('loading')
  useEffect(() => {
    if (permissions !== 'ADMIN') return setEvents('Webhook events are shown to ADMIN accounts')
    api<Record<string, any>[]>('GET', `/admin/events${query({ subjectId: orderId, limit: 50 })}`).then(
      (a) => setEvents(a.data),
      (err: Error) => setEvents(err.message),
    )
  }, [orderId, permissions])
  if (typeof events === 'string') return <Typography variant="body2">Events: {events}</Typography>
  return <Rows title="Events" rows={events} columns={['type', 'status', 'attempts', 'createdAt']} />
}

function OrderActions() {
  const order = useRecordContext()
  const [to, setTo] = useState('')
  const [note, setNote] = useState('')
  if (!order) return null
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      <MuiTextField select size="small" label="Move to" value={to} onChange={(e) => setTo(e.target.value)} sx={{ minWidth: 200 }} data-testid="move-to">
        {/* The list's record (no nextStatuses) may show before the order itself has loaded. */}
        {((order.nextStatuses ?? []) as string[]).filter((s) => s !== 'CANCELLED').map((s) => (
          <MenuItem key={s} value={s}>
            {s}
          </MenuItem>
        ))}
      </MuiTextField>
      <MuiTextField size="small" label="Note" value={note} onChange={(e) => setNote(e.target.value)} />
      <ActionButton label="Move" disabled={!to} method="POST" path={`/admin/orders/${order.id}/status`} body={{ status: to, ...(note ? { note } : {}) }} />
      <ActionButton label="Cancel order" color="error" disabled={!order.nextStatuses?.includes('CANCELLED')} method="POST" path={`/admin/orders/${order.id}/status`} body={{ status: 'CANCELLED', note: note || 'Cancelled from the console' }} />
    </Stack>
  )
}

function OrderDetail() {
  const order = useRecordContext()
  if (!order) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">
          Order {order.orderNumber}: <span data-testid="order-status">{order.status}</span>
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {order.paymentMode} · payment {order.paymentStatus} · total ₹{order.totalAmount} · {order.shippingAddress?.name}, {order.shippingAddress?.city} {order.shippingAddress?.pincode}
        </Typography>
        <OrderActions />
        <Rows title="Lines" rows={order.items} columns={['name', 'sku', 'quantity', 'unitPrice', 'lineTotal', 'status']} />
        <Rows title="Payments" rows={order.payments} columns={['id', 'provider', 'status', 'amount', 'createdAt']} />
        <Rows title="Refunds" rows={order.refunds} columns={['id', 'status', 'amount', 'reason', 'createdAt']} />
        <Rows title="Shipments" rows={order.shipments} columns={['id', 'carrier', 'status', 'awb', 'createdAt']} />
        <Rows title="Status history" rows={order.statusHistory} columns={['status', 'actor', 'note', 'at']} testId="status-history" />
        <OrderEvents orderId={String(order.id)} />
      </CardContent>
    </Card>
  )
}

export const OrderShow = () => (
  <Show actions={false} component="div">
    <OrderDetail />
  </Show>
)
