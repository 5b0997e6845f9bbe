import { AddCustomerNoteRequest } from '@storage/contracts/customers';
import { Button, Empty, Flex, Form, Input, List, Skeleton, Typography } from 'antd';
import { contractRule } from '../../../lib/form-rules.ts';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useAddCustomerNote, useCustomerNotes } from '../api/notes.ts';

/** Notes staff keep on the customer, newest first, with who wrote each and when; staff who change things add one. */
export function CustomerNotes({ customerId, canAdd }: { customerId: string; canAdd: boolean }) {
  const notes = useCustomerNotes(customerId);
  const add = useAddCustomerNote(customerId);
  const [form] = Form.useForm<{ text: string }>();
  const toast = useToast();
  const save = ({ text }: { text: string }) =>
    add.mutate(
      text,
      toast.outcome('Note added', 'Failed to add the note', () => form.resetFields()),
    );
  return (
    <Flex vertical gap={16}>
      {canAdd && (
        <Form form={form} layout="vertical" onFinish={save} disabled={add.isPending}>
          <Form.Item label="New Note" name="text" rules={[contractRule('Note', AddCustomerNoteRequest.shape.text)]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="What the next person at the desk should know" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            Add Note
          </Button>
        </Form>
      )}
      {notes.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : notes.isError ? (
        <Typography.Text type="danger">Could not load the notes</Typography.Text>
      ) : notes.data.length === 0 ? (
        <Empty description="No notes yet" />
      ) : (
        <List
          dataSource={notes.data}
          renderItem={(note) => (
            <List.Item data-testid="customer-note">
              <Flex vertical gap={4}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{note.text}</Typography.Paragraph>
                <Typography.Text type="secondary">
                  {note.author ?? 'System'} · {formatDate(note.createdAt)}, {formatTime12h(note.createdAt)}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}
