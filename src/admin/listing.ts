import { ApiError } from '../core/errors/api-error';
import { SortErrors } from '../workspaces/workspaces.service';

/** Baserow's AdminListingView page size limit (`PageNumberPagination(limit_page_size=100)`). */
export const ADMIN_PAGE_SIZE_LIMIT = 100;

export interface ListingSort<K extends string> {
  key: K;
  descending: boolean;
}

/**
 * Baserow's SortableViewMixin: a comma-separated `+attr`/`-attr` list (`-` descending). Too
 * short is a bad attribute, then the prefix, then the name; a repeated attribute is bad.
 * Without the parameter the list is sorted by id.
 */
export function parseSorts<K extends string>(sorts: string | undefined, allowed: readonly K[]): ListingSort<K>[] {
  if (sorts === undefined) return [{ key: 'id' as K, descending: false }];
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

/** DRF's page number pagination: a bad or absent page is 1, a bad size 100, a size over the limit refused. */
export function pageWindow(page: number | undefined, size: number | undefined): { page: number; size: number; offset: number } {
  const pageNumber = page ?? 1;
  const pageSize = size ?? ADMIN_PAGE_SIZE_LIMIT;
  if (pageSize > ADMIN_PAGE_SIZE_LIMIT) throw new ApiError('ERROR_PAGE_SIZE_LIMIT', 400, `The page size is limited to ${ADMIN_PAGE_SIZE_LIMIT}.`);
  return { page: pageNumber, size: pageSize, offset: (pageNumber - 1) * pageSize };
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
