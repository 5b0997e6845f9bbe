import { InboxOutlined } from '@ant-design/icons';

export function Brand() {
  return (
    <span className="brand">
      <span className="brand-mark" aria-hidden>
        <InboxOutlined />
      </span>
      <span className="brand-name">Self Storage</span>
    </span>
  );
}
