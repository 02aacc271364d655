import { ApiError } from '../errors/api-error';

export const SortErrors = {
  invalidDirection: () => new ApiError('ERROR_INVALID_SORT_DIRECTION', 400, "Attributes to sort by must be prefixed with one of '-' or '+'."),
  invalidAttribute: () => new ApiError('ERROR_INVALID_SORT_ATTRIBUTE', 400, 'Invalid attribute name provided to sort by.'),
};

export interface ListingSort<K extends string> {
  key: K;
  descending: boolean;
}

/**
 * Baserow's SortableViewMixin `sorts` parameter: a comma-separated `+attr`/`-attr` list (`-`
 * descending). Too short is a bad attribute, then the prefix, then the name; a repeated
 * attribute is bad.
 */
export function parseSortParameter<K extends string>(sorts: string, allowed: readonly K[]): ListingSort<K>[] {
  const seen = new Set<string>();
  return sorts.split(',').map((raw) => {
    if (raw.length <= 2) throw SortErrors.invalidAttribute();
    if (raw[0] !== '-' && raw[0] !== '+') throw SortErrors.invalidDirection();
    const key = raw.slice(1) as K;
    if (!allowed.includes(key) || seen.has(key)) throw SortErrors.invalidAttribute();
    seen.add(key);
    return { key, descending: raw[0] === '-' };
  });
}
