// The inventory ledger of a catalog (CATALOG and ADMIN; issue #41 step 6, decision 0043): every
// receipt, adjustment, transfer, sale, release and return, newest first, a server page at a time,
// filtered by location, kind and product. Each move: when (India's time), where, what unit, its
// kind, the signed quantity the level gained, who (the back-office account, or the system for
// orders and returns), why, and what it belongs to (an order, linked to its page for the roles that
// have one; a transfer's id, shared by its two moves).
import { Link } from 'react-router-dom'
import { Typography } from '@mui/material'
import { useWatch } from 'react-hook-form'
import { AutocompleteInput, Datagrid, FunctionField, List, type RaRecord, ReferenceField, ReferenceInput, SelectInput, useGetList, useGetManyAggregate, useListContext, usePermissions } from 'react-admin'
import { session } from './api.ts'
import { catalogFilter } from './catalog.tsx'
import { formatTime } from './format.ts'
import { ResponsiveTable } from './responsive.tsx'

const KINDS: Record<string, string> = {
  RECEIVE: 'units arrived',
  ADJUST: 'a count corrected',
  TRANSFER_OUT: 'sent to another location',
  TRANSFER_IN: 'from another location',
  SALE: 'taken by an order',
  RELEASE: 'given back by a cancellation',
  RETURN: 'a return checked in',
}

/** "+20", "-3": what the level gained. */
export const signed = (n: number) => (n > 0 ? `+${n}` : String(n))

/** The catalog's locations, as the filter form's catalog says (the list's default catalog when none is chosen). */
function useLocations(catalogId: string | undefined) {
  const { data = [] } = useGetList('locations', { filter: { catalogId }, pagination: { page: 1, perPage: 100 }, sort: { field: 'position', order: 'ASC' } })
  return data
}

function LocationFilter({ source }: { source: string; alwaysOn?: boolean }) {
  const catalogId = useWatch({ name: 'catalogId' }) as string | undefined
  const locations = useLocations(catalogId)
  return <SelectInput source={source} label="Location" choices={locations.map((l) => ({ id: l.id, name: l.name }))} sx={{ minWidth: 200 }} />
}

function ProductFilter({ source }: { source: string; alwaysOn?: boolean }) {
  const catalogId = useWatch({ name: 'catalogId' }) as string | undefined
  return (
    <ReferenceInput source={source} reference="products" filter={{ catalogId }}>
      <AutocompleteInput label="Product" optionText={(p: RaRecord) => `${p.name} (${p.sku})`} sx={{ minWidth: 260 }} />
    </ReferenceInput>
  )
}

const filters = [
  catalogFilter,
  <LocationFilter key="locationId" source="locationId" alwaysOn />,
  <SelectInput key="kind" source="kind" label="Kind" choices={Object.entries(KINDS).map(([id, words]) => ({ id, name: `${id} (${words})` }))} alwaysOn />,
  <ProductFilter key="productId" source="productId" alwaysOn />,
]

/** The move's product and variant by name ("Console kurta · M / Red"), read with the page's other products in one batch. */
function UnitOf({ move }: { move: RaRecord }) {
  const { data } = useGetManyAggregate('products', { ids: [move.productId] })
  const product = data?.[0]
  if (!product) return <>{move.productId}</>
  const variant = (product.variants as { id: string; title: string | null }[]).find((v) => v.id === move.variantId)
  if (!product.options?.length) return <>{product.name}</>
  return <>{`${product.name} · ${variant?.title ?? `${move.variantId} (removed)`}`}</>
}

function LocationOf({ move }: { move: RaRecord }) {
  const { filterValues } = useListContext()
  const locations = useLocations(filterValues.catalogId)
  return <>{locations.find((l) => l.id === move.locationId)?.name ?? move.locationId}</>
}

/** Who made the move: the system (orders, returns), the signed-in admin, or (for ADMIN, who may list accounts) another account's e-mail. */
function ActorOf({ move }: { move: RaRecord }) {
  const { permissions } = usePermissions()
  const { data: admins = [] } = useGetList('admins', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' } }, { enabled: permissions === 'ADMIN' && move.actor !== 'system' })
  const me = session()?.admin
  if (move.actor === 'system') return <>system</>
  if (me && me.id === move.actor) return <>{me.email}</>
  return <>{admins.find((a) => a.id === move.actor)?.email ?? move.actor}</>
}

/** An order's move links to the order's page (ADMIN: CATALOG has no orders), named by its number; a transfer's shows its id. */
function ReferenceOf({ move }: { move: RaRecord }) {
  const { permissions } = usePermissions()
  const reference = move.reference as string | null
  if (!reference) return <>—</>
  if (!reference.startsWith('ord_')) return <>{reference.startsWith('trf_') ? `transfer ${reference}` : reference}</>
  if (permissions !== 'ADMIN' && permissions !== 'SUPPORT') return <>order {reference}</>
  return (
    <ReferenceField record={move} source="reference" reference="orders" link={false}>
      <FunctionField render={(order: RaRecord) => <Link to={`/orders/${reference}/show`}>order {order.orderNumber}</Link>} />
    </ReferenceField>
  )
}

export const InventoryLedger = () => (
  <List filters={filters} perPage={25} exporter={false} title="Inventory ledger" sort={{ field: 'createdAt', order: 'DESC' }} empty={false}>
    <ResponsiveTable
      primary={(r) => (
        <>
          {signed(r.quantity)} {r.kind} · <UnitOf move={r} />
        </>
      )}
      secondary={(r) => (
        <>
          {formatTime(r.createdAt)} · <LocationOf move={r} /> · <ActorOf move={r} /> · {r.reason} · <ReferenceOf move={r} />
        </>
      )}
      link={false}
    >
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<Typography variant="body2" sx={{ p: 2 }}>No moves for these filters: a catalog's ledger starts with its first location.</Typography>}>
        <FunctionField label="When (IST)" sx={{ whiteSpace: 'nowrap' }} render={(r: RaRecord) => formatTime(r.createdAt)} />
        <FunctionField label="Location" render={(r: RaRecord) => <LocationOf move={r} />} />
        <FunctionField label="Product" render={(r: RaRecord) => <UnitOf move={r} />} />
        <FunctionField label="Kind" render={(r: RaRecord) => r.kind} />
        <FunctionField label="Units" textAlign="right" render={(r: RaRecord) => signed(r.quantity)} />
        <FunctionField label="By" render={(r: RaRecord) => <ActorOf move={r} />} />
        <FunctionField label="Reason" render={(r: RaRecord) => r.reason} />
        <FunctionField label="Reference" sx={{ wordBreak: 'break-word' }} render={(r: RaRecord) => <ReferenceOf move={r} />} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)
