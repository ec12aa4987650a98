// Fulfilment on the order page (issue #39): book a parcel (a carrier by rate, the delivery zone's rule
// or the merchant's own delivery; the units of a split; the box as the API would declare it), and
// every parcel with its tracking and label, and what can be done with it now: cancel, ask for the
// pickup again, refresh its scans, a non-delivery action, resolve a loss, move one's own delivery.
// And the fulfilment page: the day's pick list and a carrier's manifest, the carrier of each zone.
import { useEffect, useState } from 'react'
import { Box, Button, Card, CardContent, Link, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Title, useNotify, usePermissions, useRefresh } from 'react-admin'
import { ActionButton, useApiAction } from './actions.tsx'
import { api, download } from './api.ts'
import { formatRupees, formatTime } from './format.ts'

type Rec = Record<string, any>

/** Units of each line in no parcel, as the API counts them (the admin order's `unparcelled`). */
const unshippedUnits = (order: Rec) => new Map(((order.unparcelled ?? []) as Rec[]).map((l) => [l.orderItemId as string, l.quantity as number]))

const SHIPPABLE = ['CONFIRMED', 'PACKED', 'SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED']

/** The booking form: which units, which carrier (or courier, by rate), the box, the e-way bill; or one's own delivery. */
function BookParcel({ order }: { order: Rec }) {
  const left = unshippedUnits(order)
  const lines = (order.items as Rec[]).filter((i) => (left.get(i.id) ?? 0) > 0)
  const [units, setUnits] = useState<Record<string, string>>(() => Object.fromEntries(lines.map((i) => [i.id, String(left.get(i.id))])))
  const [carrier, setCarrier] = useState('')
  const [weight, setWeight] = useState('')
  const [ewayBillNo, setEwayBillNo] = useState('')
  const [trackingNumber, setTrackingNumber] = useState('')
  const [trackingUrl, setTrackingUrl] = useState('')
  const [quote, setQuote] = useState<Rec | null>(null)
  const { run, busy } = useApiAction()
  if (!SHIPPABLE.includes(order.status) || lines.length === 0) return null

  const items = lines.map((i) => ({ orderItemId: i.id, quantity: Number(units[i.id] ?? 0) })).filter((l) => l.quantity > 0)
  const whole = items.length === lines.length && items.every((l) => l.quantity === left.get(l.orderItemId))
  const manual = carrier === 'manual'
  const body = (extra: Rec = {}) => ({
    ...(carrier ? { carrier } : {}),
    ...(whole ? {} : { items }),
    ...(weight ? { weightGrams: Number(weight) } : {}),
    ...(ewayBillNo ? { ewayBillNo } : {}),
    ...(manual && trackingNumber ? { trackingNumber } : {}),
    ...(manual && trackingUrl ? { trackingUrl } : {}),
    ...extra,
  })
  const getRates = async () => {
    const answer = await run<Rec>('POST', `/admin/orders/${order.id}/shipping-rates`, { ...(carrier && !manual ? { carrier } : {}), ...(whole ? {} : { items }), ...(weight ? { weightGrams: Number(weight) } : {}) })
    if (answer) {
      setQuote(answer.data)
      if (!weight) setWeight(String(answer.data.weightGrams))
    }
  }
  const book = (extra: Rec = {}) => run('POST', `/admin/orders/${order.id}/shipments`, body(extra)).then((a) => a && setQuote(null))

  return (
    <Box sx={{ mb: 2, p: 1.5, border: '1px solid #ddd', borderRadius: 1 }} data-testid="book-parcel">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 'bold' }}>
        Book a parcel
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ flexWrap: 'wrap', my: 1 }}>
        {lines.map((i) => (
          <MuiTextField key={i.id} size="small" type="number" label={`${i.name} (${i.sku}), of ${left.get(i.id)}`} value={units[i.id] ?? ''} onChange={(e) => setUnits({ ...units, [i.id]: e.target.value })} slotProps={{ htmlInput: { min: 0, max: left.get(i.id) } }} />
        ))}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 1 }}>
        <MuiTextField select size="small" label="Carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)} sx={{ minWidth: 220 }} data-testid="parcel-carrier">
          <MenuItem value="">The zone's rule or the default</MenuItem>
          {[...new Set(((quote?.rates ?? []) as Rec[]).map((r) => r.carrier as string))].map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
          <MenuItem value="manual">Own delivery (no carrier)</MenuItem>
        </MuiTextField>
        <MuiTextField size="small" type="number" label="Weight (grams)" value={weight} onChange={(e) => setWeight(e.target.value)} helperText={quote ? `Box ${quote.dimensionsCm.length} × ${quote.dimensionsCm.breadth} × ${quote.dimensionsCm.height} cm` : 'Empty: from the products'} />
        <MuiTextField size="small" label="E-way bill number" value={ewayBillNo} onChange={(e) => setEwayBillNo(e.target.value)} helperText="Goods over ₹50,000 with tax" />
        {manual && <MuiTextField size="small" label="Tracking number (optional)" value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} />}
        {manual && <MuiTextField size="small" label="Tracking link (optional)" value={trackingUrl} onChange={(e) => setTrackingUrl(e.target.value)} />}
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {!manual && (
          <Button size="small" variant="outlined" disabled={busy || items.length === 0} onClick={getRates}>
            Compare rates
          </Button>
        )}
        <Button size="small" variant="contained" disabled={busy || items.length === 0} onClick={() => book()}>
          {manual ? 'Book own delivery' : 'Book'}
        </Button>
      </Stack>
      {quote && !manual && (
        <Box sx={{ mt: 1, overflowX: 'auto' }} data-testid="rates">
          {quote.zoneRule && (
            <Typography variant="body2">
              Zone {quote.zoneRule.zoneName}: {quote.zoneRule.carrier ?? 'default carrier'}, {quote.zoneRule.courierRule ?? 'default rule'}
            </Typography>
          )}
          {(quote.rates as Rec[]).length === 0 && <Typography variant="body2">No courier serves pincode {order.shippingAddress?.pincode} for this parcel.</Typography>}
          {(quote.rates as Rec[]).map((r) => (
            <Stack key={`${r.carrier}-${r.courierId}`} direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.5 }}>
              <Typography variant="body2" sx={{ minWidth: 240 }}>
                {r.courierName} ({r.carrier}) · {formatRupees(r.charge)} · {r.estimatedDays ?? '?'} days{r.recommended ? ' · recommended' : ''}
                {r.cheapest ? ' · cheapest' : ''}
                {r.fastest ? ' · fastest' : ''}
              </Typography>
              <Button size="small" variant="outlined" disabled={busy} onClick={() => book({ carrier: r.carrier, courierId: r.courierId })}>
                Book {r.courierName}
              </Button>
            </Stack>
          ))}
        </Box>
      )}
    </Box>
  )
}

const MANUAL_MOVES = ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED', 'DELIVERED', 'RTO_INITIATED', 'RTO_DELIVERED', 'LOST', 'DAMAGED']

/** One parcel as the back office sees it, and what can be done with it now. */
function Parcel({ parcelId }: { parcelId: string }) {
  const [parcel, setParcel] = useState<Rec | null>(null)
  const [move, setMove] = useState('')
  const [note, setNote] = useState('')
  // A re-attempt's corrections (decision 0030): the day to deliver on, an address line, a mobile.
  const [deferredDate, setDeferredDate] = useState('')
  const [addressLine, setAddressLine] = useState('')
  const [phone, setPhone] = useState('')
  const notify = useNotify()
  const refresh = useRefresh()
  useEffect(() => {
    api<Rec>('GET', `/admin/shipments/${parcelId}`).then((a) => setParcel(a.data), (err: Error) => notify(err.message, { type: 'error' }))
  }, [parcelId, notify])
  if (!parcel) return null
  const path = `/admin/shipments/${parcel.id}`
  const manual = parcel.carrier === 'manual'
  const reload = () => api<Rec>('GET', path).then((a) => setParcel(a.data))
  const done = () => {
    refresh()
    void reload()
  }
  return (
    <Box sx={{ mb: 1.5, p: 1.5, border: '1px solid #ddd', borderRadius: 1 }} data-testid={`parcel-${parcel.awb}`}>
      <Typography variant="body1" sx={{ fontWeight: 'bold' }}>
        {parcel.direction === 'REVERSE' ? 'Return pickup' : 'Parcel'} {parcel.awb} · {parcel.carrier}
        {parcel.courierName ? ` (${parcel.courierName})` : ''} · <span data-testid="parcel-status">{parcel.status}</span>
      </Typography>
      <Typography variant="body2">
        {parcel.items.length} line(s), {parcel.items.reduce((n: number, l: Rec) => n + l.quantity, 0)} unit(s) · {parcel.weightGrams} g · {parcel.dimensionsCm.length} × {parcel.dimensionsCm.breadth} × {parcel.dimensionsCm.height} cm
        {parcel.ewayBillNo ? ` · e-way bill ${parcel.ewayBillNo}` : ''}
        {parcel.expectedDeliveryDate ? ` · expected ${parcel.expectedDeliveryDate}` : ''}
        {parcel.pickup ? ` · pickup ${parcel.pickup.scheduledAt ? formatTime(parcel.pickup.scheduledAt) : 'accepted'}` : parcel.status === 'CREATED' && !manual ? ' · pickup not accepted yet' : ''}
        {parcel.resolution ? ` · resolved: ${parcel.resolution.action} (${formatTime(parcel.resolution.at)})` : ''}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', my: 1, alignItems: 'center' }}>
        {parcel.trackingUrl && (
          <Link href={parcel.trackingUrl} target="_blank" rel="noopener noreferrer">
            Tracking
          </Link>
        )}
        {parcel.direction === 'FORWARD' && (
          <Button size="small" onClick={() => download(`${path}/label`, `label-${parcel.awb}.pdf`).catch((err: Error) => notify(err.message, { type: 'error' }))}>
            Label (PDF)
          </Button>
        )}
        {parcel.status === 'CREATED' && <ActionButton label="Cancel parcel" color="error" method="POST" path={`${path}/cancel`} onDone={done} />}
        {parcel.status === 'CREATED' && !parcel.pickup && !manual && <ActionButton label="Ask for pickup" method="POST" path={`${path}/pickup`} onDone={done} />}
        {!manual && !['CANCELLED', 'DELIVERED', 'RTO_DELIVERED'].includes(parcel.status) && <ActionButton label="Refresh tracking" method="POST" path={`${path}/refresh`} onDone={done} />}
        {parcel.status === 'DELIVERY_FAILED' && parcel.direction === 'FORWARD' && !manual && (
          <>
            <ActionButton
              label="Deliver again"
              method="POST"
              path={`${path}/ndr`}
              body={{
                action: 'REATTEMPT',
                ...(deferredDate ? { deferredDate } : {}),
                ...(addressLine.trim() ? { addressLine: addressLine.trim() } : {}),
                ...(phone.trim() ? { phone: phone.trim() } : {}),
                ...(note ? { note } : {}),
              }}
              onDone={done}
            />
            <ActionButton label="Return to origin" color="warning" method="POST" path={`${path}/ndr`} body={{ action: 'RTO', ...(note ? { note } : {}) }} onDone={done} />
          </>
        )}
        {(parcel.status === 'LOST' || parcel.status === 'DAMAGED') && !parcel.resolution && parcel.direction === 'FORWARD' && (
          <>
            <ActionButton label="Send the units again" method="POST" path={`${path}/resolve`} body={{ action: 'RESHIP', ...(note ? { note } : {}) }} onDone={done} />
            <ActionButton label="Refund the units" color="warning" method="POST" path={`${path}/resolve`} body={{ action: 'REFUND', ...(note ? { note } : {}) }} onDone={done} />
          </>
        )}
      </Stack>
      {(manual || parcel.status === 'DELIVERY_FAILED' || parcel.status === 'LOST' || parcel.status === 'DAMAGED') && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ mb: 1, flexWrap: 'wrap' }}>
          {manual && !['CANCELLED', 'DELIVERED', 'RTO_DELIVERED', 'LOST', 'DAMAGED'].includes(parcel.status) && (
            <MuiTextField select size="small" label="Move own delivery to" value={move} onChange={(e) => setMove(e.target.value)} sx={{ minWidth: 220 }} data-testid="parcel-move">
              {MANUAL_MOVES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </MuiTextField>
          )}
          {parcel.status === 'DELIVERY_FAILED' && parcel.direction === 'FORWARD' && !manual && (
            <>
              <MuiTextField
                size="small"
                type="date"
                label="Deliver on"
                value={deferredDate}
                onChange={(e) => setDeferredDate(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                helperText="Today to 7 days ahead"
                sx={{ width: { xs: '100%', sm: 180 } }}
                data-testid="ndr-date"
              />
              <MuiTextField
                size="small"
                label="Corrected address line"
                value={addressLine}
                onChange={(e) => setAddressLine(e.target.value)}
                sx={{ width: { xs: '100%', sm: 280 } }}
                data-testid="ndr-address"
              />
              <MuiTextField size="small" label="Corrected mobile" value={phone} onChange={(e) => setPhone(e.target.value)} sx={{ width: { xs: '100%', sm: 180 } }} data-testid="ndr-phone" />
            </>
          )}
          <MuiTextField size="small" label="Note" value={note} onChange={(e) => setNote(e.target.value)} sx={{ flex: 1, minWidth: 200 }} />
          {manual && move && <ActionButton label="Move parcel" method="POST" path={`${path}/status`} body={{ status: move, ...(note ? { note } : {}) }} onDone={done} />}
        </Stack>
      )}
      {parcel.events.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {(parcel.events as Rec[]).map((e, i) => (
            <li key={i}>
              <Typography variant="body2">
                {formatTime(e.at)} · {e.status}
                {e.location ? ` · ${e.location}` : ''}
                {e.note ? ` · ${e.note}` : ''}
                {e.applied ? '' : ' (recorded, not applied)'}
                {e.refused ? ' · refused by the customer' : ''}
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {parcel.ndrActions.length > 0 && (
        <Typography variant="body2">
          Non-delivery actions:{' '}
          {(parcel.ndrActions as Rec[])
            .map((a) =>
              [a.action, a.deferredDate ? `on ${a.deferredDate}` : null, a.addressLine ? `to ${a.addressLine}` : null, a.phone ? `call ${a.phone}` : null, `(${formatTime(a.at)}, ${a.requestedBy})`]
                .filter((part) => part !== null)
                .join(' '),
            )
            .join('; ')}
        </Typography>
      )}
    </Box>
  )
}

/** The order's fulfilment: the booking form while units are in no parcel, then each parcel. */
export function Fulfilment({ order }: { order: Rec }) {
  const parcels = (order.shipments ?? []) as Rec[]
  return (
    <Box sx={{ mb: 2 }} data-testid="fulfilment">
      <Typography variant="h6" component="h2">
        Fulfilment
      </Typography>
      <BookParcel key={parcels.length} order={order} />
      {parcels.length === 0 ? <Typography variant="body2">No parcel yet.</Typography> : parcels.map((p) => <Parcel key={`${p.id}-${p.updatedAt}`} parcelId={p.id} />)}
    </Box>
  )
}

/** Today in India, YYYY-MM-DD. */
const todayInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())

/** The courier rules of the delivery zones that have one (SUPPORT reads them; ADMIN sets them in the API or here). */
function ZoneRules({ canEdit }: { canEdit: boolean }) {
  const [rules, setRules] = useState<Rec[] | string>('loading')
  const [zoneId, setZoneId] = useState('')
  const [carrier, setCarrier] = useState('')
  const [rule, setRule] = useState('')
  const load = () => api<Rec[]>('GET', '/admin/fulfilment/zone-rules').then((a) => setRules(a.data), (err: Error) => setRules(err.message))
  useEffect(() => {
    void load()
  }, [])
  return (
    <Box sx={{ mt: 3 }} data-testid="zone-rules">
      <Typography variant="h6" component="h2">
        Carrier by delivery zone
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        A parcel booked without naming a carrier, courier or rule goes by its zone's rule; without one, by the default.
      </Typography>
      {typeof rules === 'string' ? (
        <Typography variant="body2">{rules}</Typography>
      ) : rules.length === 0 ? (
        <Typography variant="body2">No zone has a rule.</Typography>
      ) : (
        rules.map((r) => (
          <Stack key={r.zoneId} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2">
              {r.zoneName ?? r.zoneId}: {r.carrier ?? 'default carrier'}, {r.courierRule ?? 'default rule'} (set by {r.updatedBy}, {formatTime(r.updatedAt)})
            </Typography>
            {canEdit && <ActionButton label="Remove" method="DELETE" path={`/admin/fulfilment/zone-rules/${r.zoneId}`} onDone={() => void load()} aria-label={`Remove the rule of ${r.zoneName ?? r.zoneId}`} />}
          </Stack>
        ))
      )}
      {canEdit && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1 }}>
          <MuiTextField size="small" label="Zone ID" value={zoneId} onChange={(e) => setZoneId(e.target.value)} helperText="From Serviceability zones" />
          <MuiTextField size="small" label="Carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)} helperText="sandbox, shiprocket, delhivery, manual; empty: default" />
          <MuiTextField select size="small" label="Courier rule" value={rule} onChange={(e) => setRule(e.target.value)} sx={{ minWidth: 180 }}>
            <MenuItem value="">Default</MenuItem>
            {['RECOMMENDED', 'CHEAPEST', 'FASTEST'].map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </MuiTextField>
          <ActionButton label="Save rule" variant="contained" disabled={!zoneId} method="PUT" path={`/admin/fulfilment/zone-rules/${zoneId}`} body={{ carrier: carrier || null, courierRule: rule || null }} onDone={() => void load()} />
        </Stack>
      )}
    </Box>
  )
}

/** The day's paperwork: the pick list, and a carrier's manifest for its courier to sign. */
export function FulfilmentDay() {
  const [date, setDate] = useState(todayInIndia)
  const [carrier, setCarrier] = useState('sandbox')
  const notify = useNotify()
  const { permissions } = usePermissions()
  const get = (path: string, name: string) => download(path, name).then((file) => notify(`Downloaded ${file}`, { type: 'success' }), (err: Error) => notify(err.message, { type: 'error' }))
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Fulfilment" />
      <CardContent>
        <Typography variant="h5" component="h2">
          Fulfilment
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ my: 2, alignItems: { sm: 'center' } }}>
          <MuiTextField size="small" type="date" label="Day (India)" value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <Button variant="outlined" size="small" onClick={() => get(`/admin/fulfilment/pick-list?date=${date}&format=pdf`, `pick-list-${date}.pdf`)}>
            Pick list (PDF)
          </Button>
          <MuiTextField size="small" label="Carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)} />
          <Button variant="outlined" size="small" onClick={() => get(`/admin/fulfilment/manifest?carrier=${encodeURIComponent(carrier)}&date=${date}&format=pdf`, `manifest-${carrier}-${date}.pdf`)}>
            Manifest (PDF)
          </Button>
        </Stack>
        <ZoneRules canEdit={permissions === 'ADMIN'} />
      </CardContent>
    </Card>
  )
}
