import { Button, Flex } from 'antd';

export type FormActionsProps = {
  submitLabel: string;
  /** While the form saves, its submit button spins. */
  saving: boolean;
  onCancel: () => void;
  /** The submit button of an action that ends something is red. */
  danger?: boolean;
};

/** Cancel and the submit button, at the end of a form in a dialog or drawer. */
export function FormActions({ submitLabel, saving, onCancel, danger = false }: FormActionsProps) {
  return (
    <Flex justify="flex-end" gap={8}>
      <Button onClick={onCancel}>Cancel</Button>
      <Button type="primary" danger={danger} htmlType="submit" loading={saving}>
        {submitLabel}
      </Button>
    </Flex>
  );
}
