// Returns: the review queue and one request with the customer's images. The console offers only
// what the API lists as allowed now (nextStatuses and actions, docs/returns.md): review, approve
// (optionally a lower amount), reject, ask for information, start or retry the refund, resolve;
// book the reverse pickup and record the quality check, with their results shown.
import { type ReactNode, useState } from 'react'
import { Box, Card, CardContent, Divider, Link, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, FunctionField, List, type RaRecord, SearchInput, SelectInput, Show, TextField, useRecordContext } from 'react-admin'
import { Link as RouterLink } from 'react-router-dom'
import { ActionButton } from './actions.tsx'
import { formatRupees, formatTime } from './format.ts'
import { Images } from './images.tsx'
import { ResponsiveTable } from './responsive.tsx'

const STATUS_WORDS: Record<string, string> = {
  REQUESTED: 'Requested',
  UNDER_REVIEW: 'Under review',
  NEEDS_INFO: 'Waiting for the customer',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  REFUND_PENDING: 'Refund pending',
  REFUNDED: 'Refunded',
  REFUND_FAILED: 'Refund failed',
  RESOLVED: 'Resolved',
}
const RESOLUTION_WORDS: Record<string, string> = {
  ORIGINAL_PAYMENT_REFUND: 'Refund to the original payment',
  WALLET_CREDIT: 'Wallet Cash',
  REPLACEMENT: 'Replacement',
  KEEP_ITEM_WALLET_CREDIT: 'Wallet Cash, the customer keeps the item',
}
const words = (table: Record<string, string>, code: string | null | undefined) => (code ? (table[code] ?? code) : '')

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Reason or order number" />,
  <SelectInput key="status" source="status" label="Status" choices={Object.entries(STATUS_WORDS).map(([id, name]) => ({ id, name }))} alwaysOn />,
]

export const ReturnList = () => (
  <List filters={filters} filterDefaultValues={{ status: 'REQUESTED' }} perPage={25} exporter={false}>
    <ResponsiveTable
      primary={(r) => `${r.reason} · ${formatRupees(r.requestedAmount)}`}
      secondary={(r) => `Order ${r.orderNumber ?? r.orderId} · ${words(STATUS_WORDS, r.status)} · ${words(RESOLUTION_WORDS, r.requestedResolution)}`}
      link="show"
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <FunctionField label="Order" render={(r: RaRecord) => r.orderNumber ?? r.orderId} />
        <FunctionField label="Status" render={(r: RaRecord) => words(STATUS_WORDS, r.status)} />
        <TextField source="reason" label="Reason" sortable={false} />
        <FunctionField label="Resolution asked for" render={(r: RaRecord) => words(RESOLUTION_WORDS, r.requestedResolution)} />
        <FunctionField label="Amount" textAlign="right" render={(r: RaRecord) => formatRupees(r.requestedAmount)} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

/** A small table whose columns have labels in words. */
function Table<T extends Record<string, any>>({ title, rows, columns, testId }: { title: string; rows: T[] | undefined; columns: [label: string, cell: (row: T) => ReactNode][]; testId?: string }) {
  return (
    // Width 0, at least the card's: a wide table scrolls inside the card instead of widening the page on a phone.
    <Box sx={{ mb: 2, overflowX: 'auto', width: 0, minWidth: '100%' }} data-testid={testId}>
      <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
        {title}
      </Typography>
      {!rows || rows.length === 0 ? (
        <Typography variant="body2">None</Typography>
      ) : (
        <table style={{ borderCollapse: 'collapse', fontSize: 13, minWidth: '100%' }}>
          <thead>
            <tr>
              {columns.map(([label]) => (
                <th key={label} align="left" style={{ padding: '2px 8px', borderBottom: '1px solid #ddd' }}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={row.id ?? i}>
                {columns.map(([label, cell]) => (
                  <td key={label} style={{ padding: '2px 8px', verticalAlign: 'top' }}>
                    {cell(row)}
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

/** Label and value, one line. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography variant="body2">
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:
      </Box>{' '}
      {children}
    </Typography>
  )
}

/** The label of the button that asks for a move from `from` to `to`. */
function moveLabel(from: string, to: string): string {
  if (to === 'UNDER_REVIEW') return from === 'NEEDS_INFO' ? 'Back to review' : 'Start review'
  if (to === 'NEEDS_INFO') return 'Ask for information'
  if (to === 'APPROVED') return 'Approve'
  if (to === 'REJECTED') return 'Reject'
  if (to === 'REFUND_PENDING') return from === 'REFUND_FAILED' ? 'Retry refund' : 'Start refund'
  if (to === 'RESOLVED') return 'Mark resolved'
  return words(STATUS_WORDS, to)
}
const MOVE_COLOR: Record<string, 'success' | 'error' | 'primary'> = { APPROVED: 'success', REJECTED: 'error' }

/** The status moves the API lists as allowed now, with a note to the customer (and a lower amount when approving). */
function StatusMoves({ request }: { request: RaRecord }) {
  const [note, setNote] = useState('')
  const [amount, setAmount] = useState('')
  // The list's line may show before the return itself has loaded: it carries nextStatuses too.
  const moves: string[] = request.nextStatuses ?? []
  if (moves.length === 0) return null
  const path = `/admin/returns/${request.id}/status`
  const body = (status: string) => ({ status, ...(note.trim() ? { note: note.trim() } : {}), ...(status === 'APPROVED' && amount.trim() ? { approvedAmount: amount.trim() } : {}) })
  return (
    <Stack spacing={1.5} sx={{ width: '100%' }} data-testid="return-moves">
      <MuiTextField label="Note to the customer" value={note} onChange={(e) => setNote(e.target.value)} multiline minRows={2} fullWidth slotProps={{ htmlInput: { maxLength: 1000 } }} helperText="Optional; needed when approving a lower amount" />
      {moves.includes('APPROVED') && (
        <MuiTextField
          label="Approved amount (₹)"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          helperText={`Empty: the requested ${formatRupees(request.requestedAmount)}`}
          sx={{ maxWidth: { sm: 320 } }}
        />
      )}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {moves.map((to) => (
          <ActionButton key={to} label={moveLabel(request.status, to)} color={MOVE_COLOR[to] ?? 'primary'} variant={to === 'REFUND_PENDING' ? 'contained' : 'outlined'} method="POST" path={path} body={body(to)} />
        ))}
      </Stack>
    </Stack>
  )
}

const CARRIERS = [
  ['', 'The first configured carrier'],
  ['sandbox', 'Sandbox'],
  ['shiprocket', 'Shiprocket'],
  ['delhivery', 'Delhivery'],
] as const

/** The reverse parcel: its booking when allowed, and the one booked (AWB, status, tracking). */
function Pickup({ request }: { request: RaRecord }) {
  const [carrier, setCarrier] = useState('')
  const [weight, setWeight] = useState('')
  const pickup = request.pickup as Record<string, any> | null | undefined
  const canBook = Boolean(request.actions?.bookPickup)
  if (!pickup && !canBook) return null
  const grams = Number(weight)
  const weightProblem = weight.trim() !== '' && !(Number.isInteger(grams) && grams > 0)
  return (
    <Box sx={{ mb: 2 }} data-testid="return-pickup">
      <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
        Pickup from the customer
      </Typography>
      {pickup && (
        <Stack spacing={0.25} sx={{ mb: 1 }}>
          <Fact label="AWB">{pickup.awb}</Fact>
          <Fact label="Status">{pickup.status}</Fact>
          <Fact label="Carrier">{[pickup.carrier, pickup.courierName].filter(Boolean).join(' · ')}</Fact>
          <Fact label="Tracking">
            <Link href={pickup.trackingUrl} target="_blank" rel="noreferrer">
              Track the parcel
            </Link>
          </Fact>
        </Stack>
      )}
      {canBook && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <MuiTextField select label="Carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)} sx={{ minWidth: { sm: 260 } }} fullWidth>
            {CARRIERS.map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </MuiTextField>
          <MuiTextField
            label="Weight (grams)"
            value={weight}
            onChange={(e) => setWeight(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            error={weightProblem}
            helperText={weightProblem ? 'Whole grams, more than 0' : "Empty: from the products' weights"}
            sx={{ minWidth: { sm: 200 } }}
            fullWidth
          />
          <ActionButton
            label={pickup ? 'Book another pickup' : 'Book pickup'}
            variant="contained"
            disabled={weightProblem}
            method="POST"
            path={`/admin/returns/${request.id}/pickup`}
            body={{ ...(carrier ? { carrier } : {}), ...(weight.trim() ? { weightGrams: grams } : {}) }}
            sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}
          />
        </Stack>
      )}
    </Box>
  )
}

/** The quality check: its form when allowed, and its outcome once recorded. */
function QualityCheck({ request }: { request: RaRecord }) {
  const [result, setResult] = useState('PASSED')
  const [note, setNote] = useState('')
  const check = request.qualityCheck as { result: string; note: string | null; at: string; restocked: boolean } | null | undefined
  const canCheck = Boolean(request.actions?.qualityCheck)
  if (!check && !canCheck) return null
  return (
    <Box sx={{ mb: 2 }} data-testid="return-quality-check">
      <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
        Quality check
      </Typography>
      {check && (
        <Stack spacing={0.25}>
          <Fact label="Outcome">{check.result === 'PASSED' ? 'Passed' : 'Failed'}{check.restocked ? ' · units back in stock' : ' · not restocked'}</Fact>
          {check.note && <Fact label="Note">{check.note}</Fact>}
          <Fact label="Checked">{formatTime(check.at)}</Fact>
        </Stack>
      )}
      {canCheck && (
        <Stack spacing={1.5} sx={{ width: '100%' }}>
          <MuiTextField select label="Outcome" value={result} onChange={(e) => setResult(e.target.value)} sx={{ maxWidth: { sm: 320 } }} fullWidth>
            <MenuItem value="PASSED">Passed: put the units back in stock</MenuItem>
            <MenuItem value="FAILED">Failed: do not restock</MenuItem>
          </MuiTextField>
          <MuiTextField label="Quality check note" value={note} onChange={(e) => setNote(e.target.value)} multiline minRows={2} fullWidth slotProps={{ htmlInput: { maxLength: 1000 } }} />
          <Box>
            <ActionButton label="Record quality check" variant="contained" method="POST" path={`/admin/returns/${request.id}/quality-check`} body={{ result, ...(note.trim() ? { note: note.trim() } : {}) }} />
          </Box>
        </Stack>
      )}
    </Box>
  )
}

function ReturnDetail() {
  const request = useRecordContext()
  if (!request) return null
  const nothingToDo = (request.nextStatuses ?? []).length === 0 && !request.actions?.bookPickup && !request.actions?.qualityCheck
  return (
    <Card sx={{ width: '100%', minWidth: 0, maxWidth: '100%', boxSizing: 'border-box' }}>
      <CardContent>
        <Typography variant="h5">
          Return: {words(STATUS_WORDS, request.status)}{' '}
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }} data-testid="return-status">
            {request.status}
          </Typography>
        </Typography>
        <Stack spacing={0.25} sx={{ my: 1 }}>
          <Fact label="Order">
            <Link component={RouterLink} to={`/orders/${request.orderId}/show`} data-testid="return-order">
              {request.orderNumber ?? request.orderId}
            </Link>
          </Fact>
          <Fact label="Resolution asked for">{words(RESOLUTION_WORDS, request.requestedResolution)}</Fact>
          <Fact label="Amount requested">{formatRupees(request.requestedAmount)}</Fact>
          {request.approvedAmount ? <Fact label="Amount approved">{formatRupees(request.approvedAmount)}</Fact> : null}
          {request.createdAt ? <Fact label="Asked">{formatTime(request.createdAt)}</Fact> : null}
          {request.replacementOrderId ? (
            <Fact label="Replacement order">
              <Link component={RouterLink} to={`/orders/${request.replacementOrderId}/show`}>
                Open
              </Link>
            </Fact>
          ) : null}
        </Stack>
        <Typography sx={{ mt: 1 }}>
          {request.reason}: {request.detail}
        </Typography>
        <Images urls={request.imageUrls} />
        <Divider sx={{ my: 2 }} />
        <StatusMoves request={request} />
        {nothingToDo && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            Nothing to do on this return now.
          </Typography>
        )}
        <Divider sx={{ my: 2 }} />
        <Pickup request={request} />
        <QualityCheck request={request} />
        <Table
          title="Items"
          rows={request.items as Record<string, any>[] | undefined}
          columns={[
            ['Product', (i) => i.name ?? i.orderItemId],
            ['SKU', (i) => i.sku ?? ''],
            ['Quantity', (i) => i.quantity],
            ['Reason', (i) => i.reason],
            ['Amount', (i) => formatRupees(i.requestedAmount)],
          ]}
        />
        <Table
          title="Refunds"
          testId="return-refunds"
          rows={request.refunds as Record<string, any>[] | undefined}
          columns={[
            ['Method', (r) => r.method],
            ['Status', (r) => r.status],
            ['Amount', (r) => formatRupees(r.amount)],
            ['Problem', (r) => r.failureReason ?? ''],
            ['Created', (r) => formatTime(r.createdAt)],
          ]}
        />
        <Table
          title="History"
          rows={request.history as Record<string, any>[] | undefined}
          columns={[
            ['Status', (h) => words(STATUS_WORDS, h.status)],
            ['By', (h) => h.actor],
            ['Note', (h) => h.note ?? ''],
            ['When', (h) => formatTime(h.at)],
          ]}
        />
      </CardContent>
    </Card>
  )
}

/** The window's title: the order's number, not the return's id. */
function ReturnTitle() {
  const request = useRecordContext()
  return <span>{request?.orderNumber ? `Return of order ${request.orderNumber}` : 'Return'}</span>
}

export const ReturnShow = () => (
  <Show actions={false} component="div" title={<ReturnTitle />}>
    <ReturnDetail />
  </Show>
)
