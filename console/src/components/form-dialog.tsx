import { Form, type FormProps, Modal } from 'antd';
import type { ReactNode } from 'react';
import { FormActions, type FormActionsProps } from './form-actions.tsx';

type FormDialogProps = { open: boolean; title: string; width: number; onClose: () => void; children: ReactNode };

/** A dialog around one form, whose own buttons replace the footer; it is emptied on closing, so the form starts clean on every opening. */
export function FormDialog({ open, title, width, onClose, children }: FormDialogProps) {
  return (
    <Modal open={open} title={title} footer={null} onCancel={onClose} destroyOnHidden width={width}>
      {children}
    </Modal>
  );
}

type DialogFormProps<Values> = Omit<FormProps<Values>, 'layout' | 'disabled' | 'style' | 'children'> & FormActionsProps & { children: ReactNode };

/** The form of a FormDialog: labels above fields, everything disabled while it saves, Cancel and submit at the end. */
export function DialogForm<Values>({ submitLabel, saving, onCancel, danger, children, ...formProps }: DialogFormProps<Values>) {
  return (
    <Form<Values> layout="vertical" disabled={saving} style={{ marginTop: 16 }} {...formProps}>
      {children}
      <FormActions submitLabel={submitLabel} saving={saving} onCancel={onCancel} danger={danger} />
    </Form>
  );
}
