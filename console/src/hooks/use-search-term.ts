import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.ts';

const SEARCH_DEBOUNCE_MS = 250;

/** A search box's text, and the term to send to the server once the typing pauses. */
export function useSearchTerm(initialInput = '') {
  const [input, setInput] = useState(initialInput);
  const search = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  return { input, setInput, search };
}
