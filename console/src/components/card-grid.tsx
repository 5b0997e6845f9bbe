import { Card, type CardProps, Col, type ColProps, Row, Skeleton } from 'antd';
import type { ReactNode } from 'react';

type CardGridProps<Item> = {
  items: Item[];
  /** How wide a card is at each screen size. */
  columns: ColProps;
  /** Faded while the list shows the previous search's cards until the new ones arrive. */
  dimmed?: boolean;
  renderCard: (item: Item) => ReactNode;
};

/** A list's cards, in rows that wrap. */
export function CardGrid<Item extends { id: string }>({ items, columns, dimmed = false, renderCard }: CardGridProps<Item>) {
  return (
    <Row gutter={[16, 16]} style={{ opacity: dimmed ? 0.6 : 1 }}>
      {items.map((item) => (
        <Col key={item.id} {...columns}>
          {renderCard(item)}
        </Col>
      ))}
    </Row>
  );
}

type PlaceholderCardsProps = {
  count: number;
  columns: ColProps;
  /** Lines of the skeleton inside each card. */
  rows: number;
  size?: CardProps['size'];
  testId?: string;
};

/** Skeleton cards standing in the grid while a list loads. */
export function PlaceholderCards({ count, columns, rows, size, testId }: PlaceholderCardsProps) {
  return (
    <Row gutter={[16, 16]}>
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: loading placeholders, a fixed list that never reorders
        <Col key={index} {...columns}>
          <Card size={size} data-testid={testId}>
            <Skeleton active paragraph={{ rows }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
