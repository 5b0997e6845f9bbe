import { ShopOutlined } from '@ant-design/icons';
import { BusinessProfile, type Settings } from '@storage/contracts/settings';
import { Card, Form, Input } from 'antd';
import { contractRule } from '../../../lib/form-rules.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useUpdateBusinessProfile } from '../api/update-business-profile.ts';
import { SettingsCardTitle } from './settings-card-title.tsx';
import { SettingsFormFooter } from './settings-form-footer.tsx';

type BusinessProfileValues = { name: string; phone: string; email: string };

const fieldSchemas = BusinessProfile.shape;

export function BusinessProfileCard({ profile, canChange }: { profile: Settings['businessProfile']; canChange: boolean }) {
  const updateBusinessProfile = useUpdateBusinessProfile();
  const toast = useToast();

  const save = (values: BusinessProfileValues) =>
    updateBusinessProfile.mutate(values, toast.outcome('Business profile saved successfully', 'Failed to save business profile'));

  return (
    <Card title={<SettingsCardTitle icon={<ShopOutlined />} text="Business Profile" />} className="stretch-card">
      <Form<BusinessProfileValues>
        name="businessProfile"
        layout="vertical"
        initialValues={{ name: profile.name ?? '', phone: profile.phone ?? '', email: profile.email ?? '' }}
        onFinish={save}
        disabled={!canChange || updateBusinessProfile.isPending}
      >
        <Form.Item label="Business Name" name="name" required rules={[contractRule('Business name', fieldSchemas.name)]}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item label="Phone" name="phone" rules={[contractRule('Phone', fieldSchemas.phone)]}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={[contractRule('Email', fieldSchemas.email)]}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <SettingsFormFooter canChange={canChange} saving={updateBusinessProfile.isPending} saveLabel="Save Profile" />
      </Form>
    </Card>
  );
}
