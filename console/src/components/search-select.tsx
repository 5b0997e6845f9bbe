import { keepPreviousData, type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useSearchTerm } from '../hooks/use-search-term.ts';

export type SearchSelectOption = { value: string; label: string };

type SearchSelectProps<Item, Key extends QueryKey> = {
  /** Form.Item passes value, onChange and id. */
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  placeholder: string;
  /** The query of the items the server finds for a search term. */
  itemsQuery: (search: string) => UseQueryOptions<Item[], Error, Item[], Key>;
  toOption: (item: Item) => SearchSelectOption;
  onItemChosen?: (item: Item) => void;
  /** Options listed first whatever the search: an empty choice ("No unit assigned"), or the item chosen before the form opened. */
  fixedOptions?: SearchSelectOption[];
  /** Its name, where no form label names it (a list's filter). */
  'aria-label'?: string;
  /** Offers to clear the choice; onChange then gets ''. */
  allowClear?: boolean;
  /** Said before anything is typed, for a search that lists nothing until then. */
  typeToSearch?: string;
  style?: CSSProperties;
};

/** A picker that searches the server as the user types; the chosen item stays named when a later search leaves it out. */
export function SearchSelect<Item, Key extends QueryKey>({
  value,
  onChange,
  id,
  placeholder,
  itemsQuery,
  toOption,
  onItemChosen,
  fixedOptions = [],
  'aria-label': ariaLabel,
  allowClear = false,
  typeToSearch,
  style = { width: '100%' },
}: SearchSelectProps<Item, Key>) {
  const { input, setInput, search } = useSearchTerm();
  const [chosen, setChosen] = useState<SearchSelectOption | null>(null);
  const items = useQuery({ ...itemsQuery(search), placeholderData: keepPreviousData });

  const found = (items.data ?? []).map((item) => ({ item, option: toOption(item) }));
  const fixed = new Set(fixedOptions.map((option) => option.value));
  const options = [
    ...fixedOptions,
    ...(chosen && chosen.value === value && !fixed.has(chosen.value) && !found.some(({ option }) => option.value === chosen.value) ? [chosen] : []),
    ...found.map(({ option }) => option).filter((option) => !fixed.has(option.value)),
  ];

  // A cleared choice comes as undefined.
  const choose = (selected: string | undefined) => {
    const match = found.find(({ option }) => option.value === selected);
    if (match) {
      setChosen(match.option);
      onItemChosen?.(match.item);
    }
    onChange?.(selected ?? '');
  };
  const nothingListed = items.isFetching ? <Spin size="small" /> : typeToSearch && !search ? typeToSearch : 'Nothing found';

  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      allowClear={allowClear}
      value={value}
      onChange={choose}
      options={options}
      placeholder={placeholder}
      showSearch={{ filterOption: false, onSearch: setInput, searchValue: input }}
      onOpenChange={(open) => {
        if (!open) setInput('');
      }}
      loading={items.isFetching}
      notFoundContent={nothingListed}
      status={items.isError ? 'error' : undefined}
      style={style}
    />
  );
}
