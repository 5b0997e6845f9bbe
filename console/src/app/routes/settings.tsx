import type { StaffRole } from '@storage/contracts/enums';
import { serverMessage } from '@storage/web-client/api';
import { Card, Col, Flex, Result, Row, Skeleton } from 'antd';
import { PageHeader } from '../../components/page-header.tsx';
import { useAuthUser } from '../../features/auth/api/get-auth-user.ts';
import { TwoFactorSection } from '../../features/auth/components/two-factor-section.tsx';
import { CustomerPicker } from '../../features/customers/components/customer-picker.tsx';
import { FacilitiesCard } from '../../features/facilities/components/facilities-card.tsx';
import { GatewayKeysCard } from '../../features/locks/components/gateway-keys-card.tsx';
import { MerchandiseCard } from '../../features/merchandise/components/merchandise-card.tsx';
import { MessageTemplatesCard } from '../../features/messages/components/message-templates-card.tsx';
import { ReadModelCard } from '../../features/read-model/components/read-model-card.tsx';
import { useSettings } from '../../features/settings/api/get-settings.ts';
import { BillingSettingsCard } from '../../features/settings/components/billing-settings-card.tsx';
import { BusinessProfileCard } from '../../features/settings/components/business-profile-card.tsx';
import { DelinquencySettingsCard } from '../../features/settings/components/delinquency-settings-card.tsx';
import { LeaseTermsCard } from '../../features/settings/components/lease-terms-card.tsx';
import { NotificationPreferencesCard } from '../../features/settings/components/notification-preferences-card.tsx';
import { PaymentSettingsCard } from '../../features/settings/components/payment-settings-card.tsx';
import { PromotionsSettingsCard } from '../../features/settings/components/promotions-settings-card.tsx';
import { ProtectionSettingsCard } from '../../features/settings/components/protection-settings-card.tsx';
import { SecurityCard } from '../../features/settings/components/security-card.tsx';
import { StaffCard } from '../../features/staff/components/staff-card.tsx';
import { useFacilities } from '../../lib/facilities.ts';
import { useCanChange } from '../../lib/staff-permissions.ts';

/** The server refuses other roles too; the screen shows them the settings read-only. */
const rolesThatChangeSettings: ReadonlyArray<StaffRole> = ['owner', 'manager'];

const halfWidth = { xs: 24, xl: 12 } as const;

export default function SettingsPage() {
  const { data: user } = useAuthUser();
  const settings = useSettings();
  const facilities = useFacilities();
  const canChange = user !== undefined && rolesThatChangeSettings.includes(user.role);
  const canSendChanges = useCanChange();

  return (
    <>
      <PageHeader title="Settings" subtitle="Manage your business profile, billing, facilities, notifications, security and payments" />
      <Flex vertical gap={16}>
        {settings.isPending && (
          <Row gutter={[16, 16]}>
            {Array.from({ length: 4 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
              <Col key={index} {...halfWidth}>
                <Card>
                  <Skeleton active paragraph={{ rows: 5 }} />
                </Card>
              </Col>
            ))}
          </Row>
        )}
        {settings.isError && <Result status="error" title="Could not load settings" subTitle={serverMessage(settings.error)} />}
        {settings.isSuccess && (
          <Row gutter={[16, 16]}>
            <Col {...halfWidth}>
              <BusinessProfileCard profile={settings.data.businessProfile} canChange={canChange} />
            </Col>
            <Col {...halfWidth}>
              <NotificationPreferencesCard preferences={settings.data.notifications} canChange={canChange} />
            </Col>
            <Col {...halfWidth}>
              <SecurityCard twoFactor={<TwoFactorSection isOwner={user?.role === 'owner'} />} />
            </Col>
            <Col {...halfWidth}>
              <PaymentSettingsCard payments={settings.data.payments} canChange={canChange} />
            </Col>
          </Row>
        )}
        <BillingSettingsCard canChange={canChange} />
        <ProtectionSettingsCard canChange={canChange} />
        <PromotionsSettingsCard canChange={canChange} />
        <LeaseTermsCard canChange={canChange} />
        <DelinquencySettingsCard canChange={user?.role === 'owner'} />
        <FacilitiesCard canManage={canChange} />
        <MerchandiseCard canChange={canChange} />
        <MessageTemplatesCard canEdit={user?.role === 'owner'} canPreview={canSendChanges} customerPicker={CustomerPicker} />
        <GatewayKeysCard facilities={facilities.data ?? []} loading={facilities.isPending} canManage={user?.role === 'owner'} />
        {user?.role === 'owner' && <StaffCard currentUserId={user.id} />}
        {user?.role === 'owner' && <ReadModelCard />}
      </Flex>
    </>
  );
}
