import { Select } from 'antd';

const ALL = '';

type StatusFilterProps<Status extends string> = {
  value: Status | null;
  /** Each status with what the screen calls it. */
  options: ReadonlyArray<{ value: Status; label: string }>;
  /** What the choice of every status reads, e.g. 'All statuses'. */
  allLabel?: string;
  label?: string;
  onChange: (status: Status | null) => void;
};

/** Narrows a list to one status, or shows them all. */
export function StatusFilter<Status extends string>({ value, options, allLabel = 'All statuses', label = 'Status', onChange }: StatusFilterProps<Status>) {
  return (
    <Select<Status | typeof ALL>
      aria-label={label}
      value={value ?? ALL}
      options={[{ value: ALL, label: allLabel }, ...options]}
      onChange={(status) => onChange(status === ALL ? null : status)}
      popupMatchSelectWidth={false}
      style={{ minWidth: 150 }}
    />
  );
}
