import { HistoryOutlined } from '@ant-design/icons';
import type { HistoryStreamType } from '@storage/contracts/history';
import { Button, Drawer } from 'antd';
import { useState } from 'react';
import { EntityHistory } from './entity-history.tsx';

/** Opens an entity's History (its events, and its state as of a date) beside the screen it is on. */
export function HistoryButton({ streamType, id, title }: { streamType: HistoryStreamType; id: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="text" icon={<HistoryOutlined />} onClick={() => setOpen(true)}>
        History
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={`History: ${title}`} size="min(560px, 100vw)" destroyOnHidden>
        <EntityHistory streamType={streamType} id={id} />
      </Drawer>
    </>
  );
}
