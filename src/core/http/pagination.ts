import type { Request } from 'express';

/** The request's absolute URL (the base of pagination links). */
export function requestUrl(req: Request): URL {
  return new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
}

/**
 * DRF LimitOffsetPagination links: `offset` moves by `limit`; the link back to the first
 * page drops `offset`.
 */
export function limitOffsetLinks(url: URL, limit: number, offset: number, count: number): { next: string | null; previous: string | null } {
  const link = (target: number | null): string => {
    const copy = new URL(url.toString());
    copy.searchParams.set('limit', String(limit));
    if (target === null) copy.searchParams.delete('offset');
    else copy.searchParams.set('offset', String(target));
    return copy.toString();
  };
  return {
    next: offset + limit < count ? link(offset + limit) : null,
    previous: offset <= 0 ? null : offset - limit <= 0 ? link(null) : link(offset - limit),
  };
}

/** Absolute `next`/`previous` links from the request URL with `page` replaced (page 1 drops it). */
export function pageLinks(url: URL, page: number, size: number, count: number): { next: string | null; previous: string | null } {
  const link = (target: number): string => {
    const copy = new URL(url.toString());
    if (target === 1) copy.searchParams.delete('page');
    else copy.searchParams.set('page', String(target));
    return copy.toString();
  };
  return {
    next: page * size < count ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
  };
}
