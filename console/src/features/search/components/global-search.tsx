import { SearchOutlined } from '@ant-design/icons';
import { invoiceStatusLabels, unitStatusLabels } from '@storage/contracts/enums';
import type { SearchResults } from '@storage/contracts/search';
import { Input, type InputRef, Typography } from 'antd';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { customerPath } from '../../../components/customer-link.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDollars } from '../../../lib/format.ts';
import { useSearchEverything } from '../api/search.ts';

const TYPING_PAUSE_MS = 200;

type Result = { path: string; title: string; detail: string };
type Group = { label: string; results: Result[] };

/** Each kind of result, and where it opens: a customer's page, or the list searched for it. */
function groupsOf(results: SearchResults | undefined): Group[] {
  if (!results) return [];
  return [
    {
      label: 'Customers',
      results: results.customers.map((c) => ({
        path: customerPath(c.id),
        title: c.name,
        detail: [c.email, c.phone].filter(Boolean).join(' · '),
      })),
    },
    {
      label: 'Units',
      results: results.units.map((u) => ({
        path: `/units?search=${encodeURIComponent(u.unitNumber)}`,
        title: `Unit ${u.unitNumber}`,
        detail: `Building ${u.building} · ${unitStatusLabels[u.status]}`,
      })),
    },
    {
      label: 'Invoices',
      results: results.invoices.map((i) => ({
        path: `/billing?search=${encodeURIComponent(i.invoiceNumber)}`,
        title: i.invoiceNumber,
        detail: `${i.customerName} · ${formatDollars(i.amount)} · ${invoiceStatusLabels[i.status]}`,
      })),
    },
  ].filter((group) => group.results.length > 0);
}

/**
 * The console's global search: customers by name, email or phone, units by number, invoices by
 * number, in the facility in scope, answering as you type. Ctrl-K (⌘K) focuses it from anywhere;
 * the arrow keys pick a result, Enter opens it, Escape closes the list (an ARIA combobox).
 */
export function GlobalSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = useDebouncedValue(text.trim(), TYPING_PAUSE_MS);
  const { selectedFacility } = useFacilityScope();
  const answer = useSearchEverything(term, selectedFacility?.id ?? null);
  const [, navigate] = useLocation();
  const input = useRef<InputRef>(null);
  const id = useId();

  useEffect(() => {
    const focusOnShortcut = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        input.current?.focus({ cursor: 'all' });
      }
    };
    window.addEventListener('keydown', focusOnShortcut);
    return () => window.removeEventListener('keydown', focusOnShortcut);
  }, []);

  const groups = term ? groupsOf(answer.data) : [];
  const results = groups.flatMap((group) => group.results);
  const current = Math.min(active, results.length - 1);
  const nothingFound = term.length > 0 && answer.isSuccess && !answer.isPlaceholderData && results.length === 0;
  const expanded = open && (results.length > 0 || nothingFound);
  const optionId = (index: number) => `${id}-option-${index}`;

  const choose = (result: Result | undefined) => {
    if (!result) return;
    setText('');
    setOpen(false);
    input.current?.blur();
    navigate(result.path);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length > 0) setActive((current + (event.key === 'ArrowDown' ? 1 : results.length - 1)) % results.length);
    } else if (event.key === 'Enter' && expanded) {
      event.preventDefault();
      choose(results[current]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  let index = -1;
  return (
    <div className="global-search">
      <Input
        ref={input}
        role="combobox"
        aria-label="Search customers, units and invoices (Ctrl+K)"
        aria-keyshortcuts="Control+K Meta+K"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-activedescendant={expanded && results.length > 0 ? optionId(current) : undefined}
        prefix={<SearchOutlined aria-hidden />}
        suffix={<kbd className="global-search-shortcut">Ctrl K</kbd>}
        placeholder="Search customers, units, invoices"
        value={text}
        allowClear
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div id={`${id}-list`} role="listbox" aria-label="Search results" className="global-search-panel" hidden={!expanded}>
        {nothingFound && <div className="global-search-empty">Nothing found</div>}
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a group of options inside an ARIA listbox, where a fieldset has no meaning
          <div key={group.label} role="group" aria-labelledby={`${id}-${group.label}`}>
            <div id={`${id}-${group.label}`} className="global-search-group" role="presentation">
              {group.label}
            </div>
            {group.results.map((result) => {
              index += 1;
              const at = index;
              return (
                // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the combobox's input, which points at the active option (aria-activedescendant) and handles its keys
                <div
                  key={result.path}
                  id={optionId(at)}
                  role="option"
                  aria-selected={at === current}
                  className={`global-search-option${at === current ? ' global-search-option-active' : ''}`}
                  // Chosen on mouse down, before the input's blur closes the list.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(result);
                  }}
                  onMouseEnter={() => setActive(at)}
                >
                  <Typography.Text strong>{result.title}</Typography.Text>
                  <Typography.Text type="secondary">{result.detail}</Typography.Text>
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
