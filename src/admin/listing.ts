import { ApiError } from '../core/errors/api-error';
import { ListingSort, parseSortParameter } from '../core/http/sorts';

export type { ListingSort } from '../core/http/sorts';

/** Baserow's AdminListingView page size limit (`PageNumberPagination(limit_page_size=100)`). */
export const ADMIN_PAGE_SIZE_LIMIT = 100;

/** The `sorts` parameter of an admin listing (Baserow's SortableViewMixin); without it the list is sorted by id. */
export function parseSorts<K extends string>(sorts: string | undefined, allowed: readonly K[]): ListingSort<K>[] {
  return sorts === undefined ? [{ key: 'id' as K, descending: false }] : parseSortParameter(sorts, allowed);
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
