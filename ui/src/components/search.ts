import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** How long typing must pause before the search runs. */
export const SEARCH_DELAY_MS = 300;

/**
 * The text of a search box that searches as you type: `search(term)` runs once typing pauses.
 * `current` is the search in the URL; when it changes without typing (the back button), the box
 * shows it.
 */
export function useSearchAsYouType(current: string, search: (term: string) => void): [string, (term: string) => void] {
  const [term, setTerm] = useState(current);
  const searched = useRef(current);
  const run = useRef(search);
  run.current = search;
  useEffect(() => {
    if (current !== searched.current) {
      searched.current = current;
      setTerm(current);
    }
  }, [current]);
  useEffect(() => {
    if (term === searched.current) return undefined;
    const timer = setTimeout(() => {
      searched.current = term;
      run.current(term);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [term]);
  return [term, setTerm];
}

/**
 * The page's URL parameters, and a change of some of them: a new history entry, so that the back
 * button undoes it; an empty value (or null) removes the parameter.
 */
export function useUrlParameters(): [URLSearchParams, (changes: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const change = useCallback(
    (changes: Record<string, string | null>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      }),
    [setParams],
  );
  return [params, change];
}
