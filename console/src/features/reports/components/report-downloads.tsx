import { DownloadOutlined } from '@ant-design/icons';
import { reportDownloads } from '@storage/contracts/reports';
import { Button, Card, Flex } from 'antd';

/** Each report button downloads that report of the facility scope as CSV. */
export function ReportDownloads({ facilityId }: { facilityId: string | null }) {
  const query = facilityId ? `?facilityId=${encodeURIComponent(facilityId)}` : '';
  return (
    <Card title="Download Reports">
      <Flex gap={12} wrap>
        {reportDownloads.map((report) => (
          <Button key={report.kind} icon={<DownloadOutlined />} href={`/api/reports/${report.kind}.csv${query}`} download>
            {report.title}
          </Button>
        ))}
      </Flex>
    </Card>
  );
}
