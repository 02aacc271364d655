import { DynamicQuery } from '../core/validation/dynamic-query';
import { Field } from '../core/validation/field';
import { FILTER_PARAMETER, FilteredRowsQuery } from '../database/rows/rows.query';

export class OrderViewsDto {
  @Field({ kind: 'list', of: { kind: 'int' }, minItems: 1, description: 'View ids in the desired order.' })
  view_ids: number[];
}

export class RefreshGridRowsDto {
  @Field({ kind: 'list', of: { kind: 'int' }, description: 'The rows to answer (those the view shows, in its order).' })
  row_ids: number[];

  @Field({ kind: 'list', of: { kind: 'int' }, required: false, description: 'Only these fields (all when absent).' })
  field_ids?: number[];
}

export class ViewIncludeQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated: `filters`, `sortings`, `decorations`, `group_bys`.' })
  include?: string;
}

export class ListViewsQuery extends ViewIncludeQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only views of this type (e.g. `grid`).' })
  type?: string;

  @Field({ kind: 'int', min: 0, required: false, description: 'At most this many views.' })
  limit?: number;
}

/** The grid view's rows: both DRF pagination styles (bad values ignored, as its paginators do), adhoc filters, search and sorts. */
export class GridRowsQuery extends FilteredRowsQuery {
  @Field({ kind: 'flag', required: false, description: 'Answer only `{"count": n}` (present means true).' })
  count?: boolean;

  @Field({ kind: 'flag', required: false, description: 'Leave out `count`, `next` and `previous`.' })
  exclude_count?: boolean;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated: `field_options`, `row_metadata`.' })
  include?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only these comma-separated fields.' })
  include_fields?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'All fields but these comma-separated ones.' })
  exclude_fields?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (with `size`).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows per page.' })
  size?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows from `offset` (limit/offset pagination when given).' })
  limit?: number;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Rows to skip (with `limit`).' })
  offset?: number;

  @Field({ kind: 'int', min: 0, fallback: null, required: false, description: 'At most this many linked rows per link cell (ignored when invalid).' })
  limit_linked_items?: number;
}

/** The gallery view's rows: limit/offset only (bad values ignored), adhoc filters, search and sorts. */
export class GalleryRowsQuery extends FilteredRowsQuery {
  @Field({ kind: 'flag', required: false, description: 'Answer only `{"count": n}` (present means true).' })
  count?: boolean;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated: `field_options`, `row_metadata`.' })
  include?: string;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows from `offset` (100 by default).' })
  limit?: number;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Rows to skip.' })
  offset?: number;
}

/**
 * The kanban view's rows per select option (Baserow ignores a default limit or offset that is
 * not an integer), with ad-hoc filters replacing the saved ones (no search, no order_by).
 */
@DynamicQuery(FILTER_PARAMETER)
export class KanbanRowsQuery {
  /** The `filter__…` parameters the pipe kept. */
  [parameter: string]: unknown;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'A JSON filter tree replacing the saved filters, instead of `filter__` parameters.' })
  filters?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: '`AND` (default) or `OR`: how the `filter__` parameters combine.' })
  filter_type?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated: `field_options`, `row_metadata`.' })
  include?: string;

  @Field({ kind: 'any', required: false, description: 'Rows per option (40 by default).' })
  limit?: unknown;

  @Field({ kind: 'any', required: false, description: 'Rows to skip per option (0 by default).' })
  offset?: unknown;

  @Field({
    kind: 'any',
    required: false,
    description: 'Repeatable: `<option id>|null[,limit[,offset]]`; only these options are answered (all when absent).',
  })
  select_option?: unknown;
}
