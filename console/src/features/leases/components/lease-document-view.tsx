import { FilePdfOutlined } from '@ant-design/icons';
import type { LeaseDocument } from '@storage/contracts/leases';
import { serverMessage } from '@storage/web-client/api';
import { Button, Col, Descriptions, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { leaseDocumentPdfUrl, useLeaseDocument } from '../api/get-lease-document.ts';

const paperStyle = { padding: 20, border: '1px solid #e2e8f0', borderRadius: 8, background: '#fff' } as const;

export function LeaseDocumentView({ leaseId }: { leaseId: string }) {
  const document = useLeaseDocument(leaseId);
  if (document.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (document.isError) return <Result status="error" title="Could not load the lease document" subTitle={serverMessage(document.error)} />;
  return <LeaseDocumentPaper document={document.data} />;
}

function LeaseDocumentPaper({ document }: { document: LeaseDocument }) {
  return (
    <article style={paperStyle} data-testid="lease-document" aria-label={document.title}>
      <Typography.Title level={4} style={{ textAlign: 'center', marginTop: 0 }}>
        {document.title}
      </Typography.Title>
      {document.sections.map((section) => (
        <Descriptions
          key={section.title}
          title={section.title}
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          items={section.rows.map((row) => ({ key: row.label, label: row.label, children: row.value }))}
        />
      ))}
      <Typography.Title level={5}>Terms and Conditions</Typography.Title>
      <ol style={{ paddingInlineStart: 20, marginTop: 0 }}>
        {document.termsAndConditions.map((term) => (
          <li key={term}>
            <Typography.Text>{term}</Typography.Text>
          </li>
        ))}
      </ol>
      <Typography.Title level={5}>Signatures</Typography.Title>
      <Row gutter={[24, 24]} style={{ marginTop: 32 }}>
        {document.signatures.map((signature) => (
          <Col key={signature.party} xs={24} sm={12}>
            <div style={{ borderTop: '1px solid #0f172a', paddingTop: 6 }}>
              <Typography.Text strong style={{ display: 'block' }}>
                {signature.party}
              </Typography.Text>
              <Typography.Text style={{ display: 'block', minHeight: 22 }}>{signature.name}</Typography.Text>
              <Typography.Text type="secondary">Date: ______________</Typography.Text>
            </div>
          </Col>
        ))}
      </Row>
      <Flex vertical align="center" gap={2} style={{ marginTop: 24 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
          Lease ID: {document.leaseId}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Generated: {document.generatedAtText}
        </Typography.Text>
      </Flex>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Button icon={<FilePdfOutlined />} href={leaseDocumentPdfUrl(document.leaseId)} download>
          Download PDF
        </Button>
      </Flex>
    </article>
  );
}
