// Orders: the server-paged list (status, partner, search by number, id or phone) and one order that
// tells the whole story: customer and address, every charge and discount, lines with their GST, the
// GST documents, fulfilment (parcels booked, tracked, acted on), payments, refunds, status history
// and events; moves along the machine. Amounts in rupees with Indian grouping, times in India's.
import { type ReactNode, useEffect, useState } from 'react'
import { Box, Button, Card, CardContent, Checkbox, Link, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, FunctionField, List, SearchInput, SelectInput, Show, TextField, TextInput, useGetList, useListContext, useNotify, useRecordContext, usePermissions, useRefresh } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { api, download, query } from './api.ts'
import { History } from './audit.tsx'
import { formatRupees, formatTime } from './format.ts'
import { Fulfilment } from './fulfilment.tsx'
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
    <BookAndPrint />
    <ResponsiveTable primary={(r) => r.orderNumber} secondary={(r) => `${r.status} · ${formatRupees(r.totalAmount)} · ${r.paymentMode}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false} sort={undefined}>
        <FunctionField label={<SelectAll />} render={() => <SelectOrder />} />
        <TextField source="orderNumber" label="Order" sortable={false} />
        <TextField source="status" label="Status" sortable={false} />
        <TextField source="paymentStatus" label="Payment" sortable={false} />
        <TextField source="paymentMode" label="Mode" sortable={false} />
        <FunctionField label="Total" render={(r: Record<string, any>) => formatRupees(r.totalAmount)} />
        <FunctionField label="Placed (IST)" render={(r: Record<string, any>) => formatTime(r.createdAt)} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

// The selection column: the list's own checkboxes, each labelled (react-admin's row checkbox puts
// its label on the wrapper, not the input: axe-core's "label" and "aria-prohibited-attr").
function SelectOrder() {
  const order = useRecordContext()
  const { selectedIds, onToggleItem } = useListContext()
  if (!order) return null
  return (
    <Checkbox
      size="small"
      checked={selectedIds.includes(order.id)}
      onClick={(event) => {
        event.stopPropagation()
        onToggleItem(order.id)
      }}
      slotProps={{ input: { 'aria-label': `Select order ${order.orderNumber}` } }}
    />
  )
}

function SelectAll() {
  const { data, selectedIds, onSelect, onUnselectItems } = useListContext()
  const ids = (data ?? []).map((order) => order.id)
  const all = ids.length > 0 && ids.every((id) => selectedIds.includes(id))
  return (
    <Checkbox
      size="small"
      checked={all}
      indeterminate={!all && selectedIds.length > 0}
      onClick={(event) => event.stopPropagation()}
      onChange={() => (all ? onUnselectItems() : onSelect(ids))}
      slotProps={{ input: { 'aria-label': 'Select all' } }}
    />
  )
}

/**
 * The selected orders each get a parcel (the zone's rule or the default carrier, every unit not yet
 * in one), then their labels come as one PDF to print. An order the API refuses is named with its
 * reason; the others are booked and printed.
 */
function BookAndPrint() {
  const { selectedIds, onUnselectItems } = useListContext()
  const notify = useNotify()
  const refresh = useRefresh()
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    const booked: string[] = []
    const refused: string[] = []
    for (const id of selectedIds) {
      try {
        booked.push((await api<{ id: string }>('POST', `/admin/orders/${id}/shipments`, {})).data.id)
      } catch (err) {
        refused.push(`${id}: ${(err as Error).message}`)
      }
    }
    try {
      if (booked.length > 0) await download('/admin/shipments/labels', `labels-${booked.length}.pdf`, { shipmentIds: booked })
      notify([`${booked.length} parcel(s) booked, their labels downloaded`, ...refused].join('\n'), { type: refused.length ? 'warning' : 'success', multiLine: true })
    } catch (err) {
      notify((err as Error).message, { type: 'error' })
    } finally {
      setBusy(false)
      onUnselectItems()
      refresh()
    }
  }
  if (selectedIds.length === 0) return null
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', p: 1, bgcolor: '#e3f2fd' }}>
      <Typography variant="body2">{selectedIds.length} selected</Typography>
      <Button size="small" variant="contained" disabled={busy} onClick={run}>
        Book parcels and print labels
      </Button>
      <Button size="small" onClick={() => onUnselectItems()}>
        Clear
      </Button>
    </Stack>
  )
}

/** A small table of rows with the given columns; empty: "none". */
export function Rows({ title, rows, columns, labels, testId }: { title: string; rows: Record<string, any>[] | undefined; columns: string[]; labels?: Record<string, string>; testId?: string }) {
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
                  {labels?.[c] ?? c}
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

/** Label and value, one line. */
const Line = ({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) => (
  <Typography variant="body2" data-testid={testId}>
    <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
      {label}
    </Box>
    {value}
  </Typography>
)

/** Where the order goes and who to call. */
function Delivery({ order }: { order: Record<string, any> }) {
  const a = order.shippingAddress ?? {}
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h6" component="h2">
        Customer and delivery
      </Typography>
      <Line label="Customer" value={<Link href={`#/customers/${order.userId}/show`}>{a.name}</Link>} />
      <Line label="Phone" value={[a.phone, order.alternatePhone].filter(Boolean).join(', alternate ')} testId="order-phone" />
      <Line label="Address" value={[a.line1, a.line2, a.landmark, a.city, a.state, a.pincode].filter(Boolean).join(', ')} />
      <Line label="Delivery" value={`${order.deliveryMethod === 'EXPRESS' ? 'Express' : 'Standard'}${order.deliveredAt ? `, delivered ${formatTime(order.deliveredAt)}` : ''}`} />
    </Box>
  )
}

/** What the customer pays, charge by charge. */
function Charges({ order }: { order: Record<string, any> }) {
  const money = (label: string, amount: string, minus = false) => (amount && amount !== '0.00' ? <Line key={label} label={label} value={`${minus ? '− ' : ''}${formatRupees(amount)}`} /> : null)
  return (
    <Box sx={{ mb: 2 }} data-testid="order-charges">
      <Typography variant="h6" component="h2">
        Charges
      </Typography>
      {money('Items', order.itemsTotal)}
      {money(`Coupon${order.couponCode ? ` ${order.couponCode}` : ''}`, order.couponDiscount, true)}
      {money('Prepaid discount', order.prepaidDiscount, true)}
      {money('Shipping', order.shippingCharge)}
      {money('Cash on delivery fee', order.codFee)}
      <Line label="Total" value={<strong>{formatRupees(order.totalAmount)}</strong>} />
      {money(`Reward Points (${order.rewardPointsUsed})`, order.rewardPointsValue, true)}
      {money('Wallet Cash', order.walletCashUsed, true)}
      <Line label={order.paymentMode === 'COD' ? 'To collect at the door' : 'Paid online'} value={formatRupees(order.amountPayable)} />
      {order.tax && <Line label="GST included" value={`${formatRupees(order.tax.totalTax)} (CGST ${formatRupees(order.tax.cgst)}, SGST ${formatRupees(order.tax.sgst)}, IGST ${formatRupees(order.tax.igst)})`} />}
    </Box>
  )
}

const LINE_COLUMNS: [string, string][] = [
  ['name', 'Product'],
  ['sku', 'SKU'],
  ['quantity', 'Quantity'],
  ['cancelledQuantity', 'Cancelled'],
  ['unitPrice', 'Unit price'],
  ['lineTotal', 'Line total'],
  ['couponDiscount', 'Coupon'],
  ['paidAmount', 'Paid'],
  ['gst', 'GST'],
]

/** The order's lines with their GST. */
function Lines({ order }: { order: Record<string, any> }) {
  const rows = (order.items as Record<string, any>[]).map((i) => ({
    ...i,
    // The variant sold (decision 0043): Cotton Kurta (M / Red).
    name: i.variantTitle ? `${i.name} (${i.variantTitle})` : i.name,
    unitPrice: formatRupees(i.unitPrice),
    lineTotal: formatRupees(i.lineTotal),
    couponDiscount: formatRupees(i.couponDiscount),
    paidAmount: formatRupees(i.paidAmount),
    gst: i.gstRateBps === null ? 'not taxed' : `${i.gstRateBps / 100} % (HSN ${i.hsnCode}): ${formatRupees(i.totalTax)}`,
  }))
  return <Rows title="Lines" rows={rows} columns={LINE_COLUMNS.map(([c]) => c)} labels={Object.fromEntries(LINE_COLUMNS)} />
}

function Documents({ order }: { order: Record<string, any> }) {
  const notify = useNotify()
  if (!order.tax) return null
  return (
    <Box sx={{ mb: 2 }}>
      <Button size="small" variant="outlined" onClick={() => download(`/admin/orders/${order.id}/invoice?format=pdf`, `invoice-${order.orderNumber}.pdf`).catch((err: Error) => notify(err.message, { type: 'error' }))}>
        GST documents (PDF)
      </Button>
    </Box>
  )
}

/** The order's returns and tickets, each a link to its page (found by the order's number). */
function Related({ orderNumber }: { orderNumber: string }) {
  const returns = useGetList('returns', { filter: { q: orderNumber }, pagination: { page: 1, perPage: 20 }, sort: { field: 'createdAt', order: 'DESC' } })
  const tickets = useGetList('tickets', { filter: { q: orderNumber }, pagination: { page: 1, perPage: 20 }, sort: { field: 'updatedAt', order: 'DESC' } })
  const links = (title: string, rows: Record<string, any>[] | undefined, path: string, text: (row: Record<string, any>) => string, testId: string) => (
    <Box sx={{ mb: 2 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 'bold' }}>
        {title}
      </Typography>
      {!rows || rows.length === 0 ? (
        <Typography variant="body2">none</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {rows.map((row) => (
            <li key={row.id}>
              <Link href={`#/${path}/${row.id}/show`}>{text(row)}</Link>
            </li>
          ))}
        </Box>
      )}
    </Box>
  )
  return (
    <>
      {links('Returns', returns.data, 'returns', (r) => `${r.status} · ${r.reason} · ${formatRupees(r.requestedAmount)} · ${formatTime(r.createdAt)}`, 'order-returns')}
      {links('Tickets', tickets.data, 'tickets', (t) => `${t.topic} · ${t.status} · ${formatTime(t.updatedAt)}`, 'order-tickets')}
    </>
  )
}

function OrderDetail() {
  const order = useRecordContext()
  // The list's row (a summary, no lines) may show for a moment before the order itself has loaded.
  if (!order?.items) return null
  const at = (rows: Record<string, any>[] | undefined, ...fields: string[]) =>
    (rows ?? []).map((r) => ({ ...r, ...Object.fromEntries(fields.map((f) => [f, f === 'amount' ? formatRupees(r[f]) : formatTime(r[f])])) }))
  return (
    <Card>
      <CardContent>
        <Typography variant="h5" component="h2">
          Order {order.orderNumber}: <span data-testid="order-status">{order.status}</span>
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {order.paymentMode === 'COD' ? 'Cash on delivery' : 'Prepaid'} · payment {order.paymentStatus} · total {formatRupees(order.totalAmount)} · placed {formatTime(order.createdAt)}
          {order.cancelReason ? ` · ${order.cancelReason}` : ''}
        </Typography>
        <OrderActions />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={4}>
          <Delivery order={order} />
          <Charges order={order} />
        </Stack>
        <Lines order={order} />
        <Documents order={order} />
        {order.unparcelled && <Fulfilment order={order} />}
        <Rows title="Payments" rows={at(order.payments, 'amount', 'createdAt')} columns={['provider', 'status', 'amount', 'createdAt']} labels={{ provider: 'Provider', status: 'Status', amount: 'Amount', createdAt: 'Time' }} />
        <Rows title="Refunds" rows={at(order.refunds, 'amount', 'createdAt')} columns={['method', 'status', 'amount', 'reason', 'createdAt']} labels={{ method: 'To', status: 'Status', amount: 'Amount', reason: 'Reason', createdAt: 'Time' }} />
        <Rows title="Status history" rows={at(order.statusHistory, 'at')} columns={['status', 'actor', 'note', 'at']} labels={{ status: 'Status', actor: 'By', note: 'Note', at: 'Time' }} testId="status-history" />
        <Related orderNumber={String(order.orderNumber)} />
        <OrderEvents orderId={String(order.id)} />
        <History object={String(order.id)} />
      </CardContent>
    </Card>
  )
}

export const OrderShow = () => (
  <Show actions={false} component="div">
    <OrderDetail />
  </Show>
)
