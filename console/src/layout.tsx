// The menu: the resources the role may use, plus the fulfilment, catalog import, pricing rules, cash
// on delivery and GSTR-1 (with the catalogs' sellers) pages.
import { Layout, type LayoutProps, Menu, usePermissions } from 'react-admin'
import UploadFileIcon from '@mui/icons-material/UploadFile'
import PriceChangeIcon from '@mui/icons-material/PriceChange'
import LocalShippingIcon from '@mui/icons-material/LocalShipping'
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong'
import InventoryIcon from '@mui/icons-material/Inventory2'

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
    </Menu>
  )
}

export const ConsoleLayout = (props: LayoutProps) => <Layout {...props} menu={ConsoleMenu} />
