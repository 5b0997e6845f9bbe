import { Col, Form, type FormItemProps, Row } from 'antd';
import type { ReactNode } from 'react';

/** A form's fields two to a row, one to a row on a phone. */
export function FieldGrid({ children }: { children: ReactNode }) {
  return <Row gutter={16}>{children}</Row>;
}

/** A field of a FieldGrid: half the row, or all of it when `wide`. */
export function GridField({ wide = false, ...itemProps }: FormItemProps & { wide?: boolean }) {
  return (
    <Col {...(wide ? { span: 24 } : { xs: 24, sm: 12 })}>
      <Form.Item {...itemProps} />
    </Col>
  );
}
