import type { Sealer } from './sealer.js';

/**
 * The value to store for a variable: sealed when it is sensitive, as given otherwise. An
 * update that gives no new value to a variable already stored sensitive keeps the sealed
 * value it has; one that makes a variable sensitive seals the value it had.
 */
export function storedValue(
  sealer: Sealer,
  variable: { value: string; sensitive: boolean },
  previous?: { value: string; sensitive: boolean },
  valueGiven = true,
): string {
  if (!variable.sensitive) return variable.value;
  if (previous?.sensitive && !valueGiven) return previous.value;
  return sealer.seal(variable.value);
}
