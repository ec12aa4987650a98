// The menu: the resources the role may use, plus the fulfilment, catalog import, pricing rules, cash
// on delivery and GSTR-1 (with the catalogs' sellers) pages. The app bar: the title and the search box.
import { AppBar, Layout, type LayoutProps, Menu, TitlePortal, usePermissions } from 'react-admin'
import UploadFileIcon from '@mui/icons-material/UploadFile'
import PriceChangeIcon from '@mui/icons-material/PriceChange'
import LocalShippingIcon from '@mui/icons-material/LocalShipping'
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong'
import PeopleIcon from '@mui/icons-material/People'
import KeyIcon from '@mui/icons-material/Key'
import InventoryIcon from '@mui/icons-material/Inventory2'
import { SearchBox } from './search.tsx'

function ConsoleMenu() {
  const { permissions } = usePermissions()
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {(permissions === 'ADMIN' || permissions === 'SUPPORT') && <Menu.Item to="/fulfilment" primaryText="Fulfilment" leftIcon={<InventoryIcon />} />}
      {(permissions === 'ADMIN' || permissions === 'CATALOG') && <Menu.Item to="/import" primaryText="Catalog import" leftIcon={<UploadFileIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/pricing" primaryText="Pricing rules" leftIcon={<PriceChangeIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/cod" primaryText="Cash on delivery" leftIcon={<LocalShippingIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/gst" primaryText="GSTR-1 and sellers" leftIcon={<ReceiptLongIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/people" primaryText="People" leftIcon={<PeopleIcon />} />}
      <Menu.Item to="/password" primaryText="My password" leftIcon={<KeyIcon />} />
    </Menu>
  )
}

function ConsoleAppBar() {
  return (
    <AppBar>
      <TitlePortal />
      <SearchBox />
    </AppBar>
  )
}

export const ConsoleLayout = (props: LayoutProps) => <Layout {...props} menu={ConsoleMenu} appBar={ConsoleAppBar} />
