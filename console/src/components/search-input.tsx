import { SearchOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import type { CSSProperties } from 'react';

export type SearchInputProps = {
  placeholder: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  style?: CSSProperties;
};

/** A list's search box: it grows with its toolbar up to a readable width, and clears with one click. */
export function SearchInput({ placeholder, label, value, onChange, style }: SearchInputProps) {
  return (
    <Input
      className="search-input"
      style={style}
      prefix={<SearchOutlined />}
      placeholder={placeholder}
      aria-label={label}
      allowClear
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
