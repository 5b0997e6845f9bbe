import { MenuOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Spin } from 'antd';
import { type ReactNode, Suspense, useState } from 'react';
import { Brand } from '../../components/brand.tsx';
import { OnDemandDrawer } from '../../components/on-demand.tsx';
import { UserBlock } from '../../features/auth/components/user-block.tsx';
import { FacilitySelector } from '../../features/facilities/components/facility-selector.tsx';
import { GlobalSearch } from '../../features/search/components/global-search.tsx';
import { StaffNavigation } from './staff-navigation.tsx';

function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Flex vertical className="sidebar">
      <div className="sidebar-brand">
        <Brand />
      </div>
      <div className="sidebar-facility">
        <FacilitySelector />
      </div>
      <nav aria-label="Main" className="sidebar-navigation">
        <StaffNavigation onNavigate={onNavigate} />
      </nav>
      <div className="sidebar-user">
        <UserBlock />
      </div>
    </Flex>
  );
}

/** Wide screens keep the sidebar in place; narrow ones (CSS breakpoint in app.css) open it as a drawer. */
export function StaffShell({ children }: { children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <Layout className="staff-layout">
      <Layout.Sider width={264} theme="light" className="staff-sider">
        <Sidebar />
      </Layout.Sider>
      <Layout>
        <header className="staff-topbar">
          <Button className="staff-topbar-menu" type="text" icon={<MenuOutlined />} aria-label="Open navigation" onClick={() => setDrawerOpen(true)} />
          <span className="staff-topbar-brand">
            <Brand />
          </span>
          <GlobalSearch />
        </header>
        <Layout.Content className="staff-content">
          <Suspense
            fallback={
              <Flex justify="center" style={{ padding: 64 }}>
                <Spin size="large" />
              </Flex>
            }
          >
            {children}
          </Suspense>
        </Layout.Content>
      </Layout>
      <OnDemandDrawer
        placement="left"
        size={280}
        open={drawerOpen}
        onClose={closeDrawer}
        closable={false}
        styles={{ body: { padding: 0 } }}
        className="staff-drawer"
      >
        <Sidebar onNavigate={closeDrawer} />
      </OnDemandDrawer>
    </Layout>
  );
}
