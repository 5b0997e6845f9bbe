import {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  CreditCardOutlined,
  DashboardOutlined,
  FileTextOutlined,
  HistoryOutlined,
  LockOutlined,
  MailOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Menu } from 'antd';
import { Link, useLocation } from 'wouter';
import { useCanReadHistory } from '../../lib/staff-permissions.ts';

/** The spec's sidebar links, in the spec's order. */
const links = [
  { path: '/', label: 'Dashboard', icon: <DashboardOutlined /> },
  { path: '/customers', label: 'Customers', icon: <TeamOutlined /> },
  { path: '/units', label: 'Units', icon: <AppstoreOutlined /> },
  { path: '/leases', label: 'Lease Agreements', icon: <FileTextOutlined /> },
  { path: '/locks', label: 'Lock Management', icon: <LockOutlined /> },
  { path: '/billing', label: 'Billing', icon: <CreditCardOutlined /> },
  { path: '/activities', label: 'Recent Activity', icon: <HistoryOutlined /> },
  { path: '/messages', label: 'Sent Messages', icon: <MailOutlined /> },
  { path: '/reports', label: 'Reports', icon: <BarChartOutlined /> },
  { path: '/settings', label: 'Settings', icon: <SettingOutlined /> },
];

const auditLink = { path: '/audit', label: 'Audit Log', icon: <AuditOutlined /> };

export function StaffNavigation({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  const canReadHistory = useCanReadHistory();
  return (
    <Menu
      mode="inline"
      // A page inside a section (a customer's page) lights its section's link.
      selectedKeys={[`/${location.split('/')[1] ?? ''}`]}
      style={{ borderInlineEnd: 0 }}
      items={(canReadHistory ? [...links, auditLink] : links).map(({ path, label, icon }) => ({
        key: path,
        icon,
        label: (
          <Link href={path} onClick={onNavigate}>
            {label}
          </Link>
        ),
      }))}
    />
  );
}
