// The console: react-admin over the back-office API. The signed-in admin's role decides the menu:
// SUPPORT runs orders, returns, tickets and customers; CATALOG the catalog (GST rates, the
// products that cannot be taxed, stock locations and the inventory ledger included); ADMIN
// everything (COD rules, GST registrations, catalogs' sellers and GSTR-1).
import { Admin, CustomRoutes, Resource, useLogin } from 'react-admin'
import { AuditLogPage } from './audit.tsx'
import { Route } from 'react-router-dom'
import { authProvider } from './authProvider.ts'
import { dataProvider } from './dataProvider.ts'
import { Dashboard } from './dashboard.tsx'
import { FulfilmentDay } from './fulfilment.tsx'
import { OwnPassword, People } from './people.tsx'
import { OrderList, OrderShow } from './orders.tsx'
import { ReturnList, ReturnShow } from './returns.tsx'
import { TicketList, TicketShow } from './tickets.tsx'
import { CategoryCreate, CategoryEdit, CategoryList, CatalogImport, ProductCreate, ProductEdit, ProductList } from './catalog.tsx'
import { CustomerList, CustomerShow } from './customers.tsx'
import { CouponCreate, CouponEdit, CouponList, PricingRules, ZoneCreate, ZoneEdit, ZoneList } from './checkout.tsx'
import { CashOnDelivery } from './cod.tsx'
import { LocationCreate, LocationEdit, LocationList, LocationShow } from './locations.tsx'
import { InventoryLedger } from './ledger.tsx'
import { GstRegistrationCreate, GstRegistrationEdit, GstRegistrationList, GstSeller, TaxRateList, UntaxedProductList } from './gst.tsx'
import { PartnerCreate, PartnerEdit, PartnerList, PartnerShow } from './partners.tsx'
import { EventList, EventShow } from './events.tsx'
import type { Role } from './api.ts'
import { ConsoleLayout } from './layout.tsx'
import { SearchPage } from './search.tsx'
import { SignIn } from './sign-in.tsx'
import { consoleTheme } from './theme.ts'

const can = (role: Role | null, ...roles: Role[]) => role === 'ADMIN' || (role !== null && roles.includes(role))

/** Signing in again inside the console (a session that ended): the same form, back to where the admin was. */
function LoginPage() {
  const login = useLogin()
  return <SignIn submit={(email, password) => login({ username: email, password })} />
}

export function App() {
  return (
    <Admin title="commerce-api console" dataProvider={dataProvider} authProvider={authProvider} dashboard={Dashboard} layout={ConsoleLayout} theme={consoleTheme} loginPage={LoginPage} requireAuth disableTelemetry>
      {(role: Role | null) => (
        <>
          {can(role, 'SUPPORT') && <Resource name="orders" list={OrderList} show={OrderShow} recordRepresentation="orderNumber" />}
          {can(role, 'SUPPORT') && <Resource name="returns" list={ReturnList} show={ReturnShow} />}
          {can(role, 'SUPPORT') && <Resource name="tickets" list={TicketList} show={TicketShow} recordRepresentation="topic" />}
          {can(role, 'SUPPORT') && <Resource name="customers" list={CustomerList} show={CustomerShow} recordRepresentation="name" />}
          {can(role, 'CATALOG') && <Resource name="products" list={ProductList} edit={ProductEdit} create={ProductCreate} recordRepresentation="name" />}
          {can(role, 'CATALOG') && <Resource name="categories" list={CategoryList} create={CategoryCreate} edit={CategoryEdit} recordRepresentation="name" />}
          {can(role, 'CATALOG') && <Resource name="taxRates" options={{ label: 'GST rates' }} list={TaxRateList} />}
          {can(role, 'CATALOG') && <Resource name="untaxedProducts" options={{ label: 'Untaxable products' }} list={UntaxedProductList} recordRepresentation="name" />}
          {can(role, 'CATALOG') && <Resource name="locations" options={{ label: 'Stock locations' }} list={LocationList} create={LocationCreate} edit={LocationEdit} show={LocationShow} recordRepresentation="name" />}
          {can(role, 'CATALOG') && <Resource name="inventoryMoves" options={{ label: 'Inventory ledger' }} list={InventoryLedger} />}
          {can(role, 'CATALOG') && <Resource name="catalogs" recordRepresentation="name" />}
          {role !== null && (
            <CustomRoutes>
              <Route path="/password" element={<OwnPassword />} />
            </CustomRoutes>
          )}
          {can(role, 'SUPPORT') && (
            <CustomRoutes>
              <Route path="/fulfilment" element={<FulfilmentDay />} />
              <Route path="/search" element={<SearchPage />} />
              <Route path="/audit-log" element={<AuditLogPage />} />
            </CustomRoutes>
          )}
          {can(role, 'CATALOG') && (
            <CustomRoutes>
              <Route path="/import" element={<CatalogImport />} />
            </CustomRoutes>
          )}
          {can(role) && <Resource name="coupons" list={CouponList} edit={CouponEdit} create={CouponCreate} recordRepresentation="code" />}
          {can(role) && <Resource name="zones" options={{ label: 'Serviceability zones' }} list={ZoneList} edit={ZoneEdit} create={ZoneCreate} recordRepresentation="name" />}
          {can(role) && <Resource name="partners" list={PartnerList} show={PartnerShow} create={PartnerCreate} edit={PartnerEdit} recordRepresentation="name" />}
          {can(role) && <Resource name="gstRegistrations" options={{ label: 'GST registrations' }} list={GstRegistrationList} create={GstRegistrationCreate} edit={GstRegistrationEdit} recordRepresentation="gstin" />}
          {can(role) && <Resource name="events" options={{ label: 'Webhook events' }} list={EventList} show={EventShow} />}
          {can(role) && (
            <CustomRoutes>
              <Route path="/pricing" element={<PricingRules />} />
              <Route path="/cod" element={<CashOnDelivery />} />
              <Route path="/gst" element={<GstSeller />} />
              <Route path="/people" element={<People />} />
            </CustomRoutes>
          )}
        </>
      )}
    </Admin>
  )
}
