import { type ListTotal, totalText } from '@storage/contracts/page-info';
import { Flex } from 'antd';
import { OnDemandPagination } from './on-demand.tsx';

type ListPaginationProps = {
  page: number;
  pageSize: number;
  /** How many the list holds: exactly (a number, or an exact ListTotal), about (an estimate) or at least (a count that stopped). */
  total: ListTotal | number;
  onChange: (page: number) => void;
};

/**
 * A list's pages; shown while there is more than one, or when the page asked for is past the end
 * (a link from before the list shrank). A total that is not exact is said as it is ("about
 * 64,800", "10,000+") and always leaves a page after the one shown, so the list can be walked on.
 */
export function ListPagination({ page, pageSize, total: given, onChange }: ListPaginationProps) {
  const total: ListTotal = typeof given === 'number' ? { count: given, kind: 'exact' } : given;
  if (total.kind === 'exact' && total.count <= pageSize && page === 1) return null;
  const count = total.kind === 'exact' ? total.count : Math.max(total.count, page * pageSize + 1);
  return (
    <Flex justify="flex-end" className="list-pagination">
      <OnDemandPagination
        current={page}
        pageSize={pageSize}
        total={count}
        showSizeChanger={false}
        onChange={onChange}
        {...(total.kind === 'exact' ? {} : { showTotal: () => totalText(total) })}
      />
    </Flex>
  );
}
