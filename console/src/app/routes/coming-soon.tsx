import { ClockCircleOutlined } from '@ant-design/icons';
import { Card, Result } from 'antd';
import { PageHeader } from '../../components/page-header.tsx';

/** Staff screens that a later release builds: named, and honest that nothing is here yet. */
export default function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <Result icon={<ClockCircleOutlined />} title="Coming soon" subTitle="This screen arrives in a later release." />
      </Card>
    </>
  );
}
