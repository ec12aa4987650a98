// The menu: the resources the role may use, plus the catalog import and the pricing rules pages.
import { Layout, type LayoutProps, Menu, usePermissions } from 'react-admin'
import UploadFileIcon from '@mui/icons-material/UploadFile'
import PriceChangeIcon from '@mui/icons-material/PriceChange'

function ConsoleMenu() {
  const { permissions } = usePermissions()
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {(permissions === 'ADMIN' || permissions === 'CATALOG') && <Menu.Item to="/import" primaryText="Catalog import" leftIcon={<UploadFileIcon />} />}
      {permissions === 'ADMIN' && <Menu.Item to="/pricing" primaryText="Pricing rules" leftIcon={<PriceChangeIcon />} />}
    </Menu>
  )
}

export const ConsoleLayout = (props: LayoutProps) => <Layout {...props} menu={ConsoleMenu} />
