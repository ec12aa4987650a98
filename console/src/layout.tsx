// The menu: the resources the role may use, plus the fulfilment, catalog import, pricing rules, cash
// on delivery, GSTR-1 (with the catalogs' sellers), people and audit log pages. The app bar: the title and the search box.
import { AppBar, Layout, type LayoutProps, Menu, TitlePortal, useGetIdentity, UserMenu, usePermissions } from 'react-admin'
import UploadFileIcon from '@mui/icons-material/UploadFile'
import PriceChangeIcon from '@mui/icons-material/PriceChange'
import LocalShippingIcon from '@mui/icons-material/LocalShipping'
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong'
import PeopleIcon from '@mui/icons-material/People'
import KeyIcon from '@mui/icons-material/Key'
import InventoryIcon from '@mui/icons-material/Inventory2'
import HistoryIcon from '@mui/icons-material/History'
import { SearchBox } from './search.tsx'

function ConsoleMenu() {
  const { permissions } = usePermissions()
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {(permissions === 'ADMIN' || permissions === 'SUPPORT') && <Menu.Item to="/fulfilment" primaryText="Fulfilment" leftIcon={<InventoryIcon />} />}
      {(permissions === 'ADMIN' || permissions === 'SUPPORT') && <Menu.Item to="/audit-log" primaryText="Audit log" leftIcon={<HistoryIcon />} />}
      {(permissions === 'ADMIN' || permissions === 'CATALOG') && <Menu.Item to="/import" primaryText="Catalog import" leftIcon={<UploadFileIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/pricing" primaryText="Pricing rules" leftIcon={<PriceChangeIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/cod" primaryText="Cash on delivery" leftIcon={<LocalShippingIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/gst" primaryText="GSTR-1 and sellers" leftIcon={<ReceiptLongIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/people" primaryText="People" leftIcon={<PeopleIcon />} />}
      <Menu.Item to="/password" primaryText="My password" leftIcon={<KeyIcon />} />
    </Menu>
  )
}

/** The account button: its accessible name holds what it shows (the admin's e-mail and role). */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity()
  return <UserMenu label={identity?.fullName ? `Account of ${identity.fullName}` : 'Account'} />
}

/** Each screen's title is its one h1, in the app bar; headings within screens start at h2. */
function ConsoleAppBar() {
  return (
    <AppBar userMenu={<ConsoleUserMenu />}>
      <TitlePortal component="h1" sx={{ fontSize: '1.25rem', fontWeight: 500, m: 0 }} />
      <SearchBox />
    </AppBar>
  )
}

// react-admin's layout is at least as wide as its content's widest line (minWidth: fit-content), so a
// phone's screen scrolled sideways (the dashboard was 449 px wide at 390 px); on a phone it is the
// window's width and the content wraps.
export const ConsoleLayout = (props: LayoutProps) => <Layout {...props} menu={ConsoleMenu} appBar={ConsoleAppBar} sx={{ minWidth: { xs: 0, sm: 'fit-content' }, '& .RaLayout-content': { minWidth: { xs: 0, sm: 'auto' } } }} />
