import { MailOutlined } from '@ant-design/icons';
import type { MessageTemplateKey } from '@storage/contracts/enums';
import { type MessagePreview, type MessageTemplate, messagePlaceholders } from '@storage/contracts/messages';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Card, Flex, Form, Input, Result, Select, Skeleton, Tag, Typography } from 'antd';
import { type ComponentType, useState } from 'react';
import { useToast } from '../../../lib/toast.tsx';
import { useMessageTemplates, usePreviewMessage, useResetMessageTemplate, useSaveMessageTemplate } from '../api/messages.ts';

/** What the card needs of a customer picker; the screen plugs in the customers feature's one. */
export type MessageCustomerPicker = ComponentType<{ value?: string; onChange?: (customerId: string) => void; id?: string }>;

type Wording = { subject: string; body: string };

type MessageTemplatesCardProps = {
  canEdit: boolean;
  /** A preview is asked with a POST, which a read-only member (an auditor) may not send: not offered to them. */
  canPreview: boolean;
  customerPicker: MessageCustomerPicker;
};

/** Settings → Messages: the owner words each message to renters and previews it with a renter's real data. */
export function MessageTemplatesCard({ canEdit, canPreview, customerPicker: CustomerPicker }: MessageTemplatesCardProps) {
  const templates = useMessageTemplates();
  const [key, setKey] = useState<MessageTemplateKey>('reservation_confirmed');
  const template = templates.data?.find((t) => t.key === key);

  return (
    <Card
      title={
        <Flex gap={8} align="center">
          <MailOutlined /> Messages to renters
        </Flex>
      }
      data-testid="message-templates-card"
    >
      {templates.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {templates.isError && <Result status="error" title="Could not load the messages" subTitle={serverMessage(templates.error)} />}
      {templates.isSuccess && (
        <Flex vertical gap={12}>
          <Flex gap={8} align="center" wrap>
            <Typography.Text strong id="message-template-label">
              Message
            </Typography.Text>
            <Select<MessageTemplateKey>
              aria-labelledby="message-template-label"
              style={{ minWidth: 260 }}
              value={key}
              onChange={setKey}
              options={templates.data.map((t) => ({ value: t.key, label: t.label }))}
            />
            {template && !template.optional && <Tag color="blue">Legal notice: always sent</Tag>}
            {template?.optional && <Tag>Renters may turn it off</Tag>}
            {template && !template.isDefault && <Tag color="purple">Your wording</Tag>}
          </Flex>
          {template && (
            <TemplateEditor
              key={`${template.key}:${template.subject}:${template.body}`}
              template={template}
              canEdit={canEdit}
              CustomerPicker={CustomerPicker}
              canPreview={canPreview}
            />
          )}
        </Flex>
      )}
    </Card>
  );
}

function TemplateEditor({
  template,
  canEdit,
  canPreview,
  CustomerPicker,
}: {
  template: MessageTemplate;
  canEdit: boolean;
  canPreview: boolean;
  CustomerPicker: MessageCustomerPicker;
}) {
  const [form] = Form.useForm<Wording>();
  const save = useSaveMessageTemplate();
  const reset = useResetMessageTemplate();
  const preview = usePreviewMessage();
  const [customerId, setCustomerId] = useState<string | undefined>();
  const [shown, setShown] = useState<MessagePreview | null>(null);
  const toast = useToast();

  const showPreview = () => {
    if (!customerId) return;
    const wording = form.getFieldsValue();
    preview.mutate(
      { key: template.key, customerId, subject: wording.subject, body: wording.body },
      { onSuccess: setShown, onError: (error) => toast.failure('Could not preview the message', error) },
    );
  };

  return (
    <Flex vertical gap={12}>
      <Form<Wording>
        form={form}
        layout="vertical"
        name="messageTemplate"
        initialValues={{ subject: template.subject, body: template.body }}
        disabled={!canEdit || save.isPending}
        onFinish={(values) => save.mutate({ key: template.key, ...values }, toast.outcome('Message saved successfully', 'Failed to save the message'))}
      >
        <Form.Item name="subject" label="Subject" rules={[{ required: true, whitespace: true, message: 'Subject is required' }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="body" label="Body" rules={[{ required: true, whitespace: true, message: 'Body is required' }]}>
          <Input.TextArea autoSize={{ minRows: 6, maxRows: 16 }} maxLength={5000} />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
          Placeholders: {messagePlaceholders.map((name) => `{${name}}`).join(' ')}
        </Typography.Paragraph>
        {canEdit && (
          <Flex gap={8} wrap>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              Save Message
            </Button>
            <Button
              disabled={template.isDefault || reset.isPending}
              onClick={() => reset.mutate(template.key, toast.outcome('Message reset to the default wording', 'Failed to reset the message'))}
            >
              Reset to Default
            </Button>
          </Flex>
        )}
        {!canEdit && <Alert type="info" showIcon title="Only the owner can change the wording of messages." />}
      </Form>
      {canPreview && (
        <Flex gap={8} align="center" wrap>
          <label htmlFor="message-preview-customer" style={{ fontWeight: 600 }}>
            Preview for
          </label>
          <div style={{ minWidth: 280, flex: 1 }}>
            <CustomerPicker value={customerId} onChange={setCustomerId} id="message-preview-customer" />
          </div>
          <Button onClick={showPreview} disabled={!customerId} loading={preview.isPending}>
            Preview
          </Button>
        </Flex>
      )}
      {shown && (
        <Card size="small" data-testid="message-preview" title={`To: ${shown.to}`}>
          <Typography.Text strong>{shown.subject}</Typography.Text>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginTop: 8, marginBottom: 0 }}>{shown.body}</Typography.Paragraph>
        </Card>
      )}
    </Flex>
  );
}
