/** DRF LimitOffsetPagination links: `offset` moves by `limit`; the first page drops `offset`. */
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
