import { DynamicQuery } from '../../core/validation/dynamic-query';
import { Field } from '../../core/validation/field';

/**
 * The query parameters of the row endpoints, validated by the validation pipe and documented
 * in the OpenAPI document from these declarations. Ids are `id` fields (bounded in one place).
 */

/** `search_mode`: compat (a cell contains the text) or full-text (the cells' words, indexed). */
export const SEARCH_MODES = ['compat', 'full-text-with-count'] as const;

export class UserFieldNamesQuery {
  @Field({ kind: 'flag', required: false, description: 'Answer and accept field names instead of `field_<id>` keys.' })
  user_field_names?: boolean;
}

export class CreateRowQuery extends UserFieldNamesQuery {
  @Field({ kind: 'id', required: false, description: 'Insert before this row (last when absent).' })
  before?: number;
}

export class BatchCreateRowsQuery extends CreateRowQuery {
  @Field({ kind: 'flag', required: false, description: 'Add `metadata.updated_field_ids` to the answer.' })
  include_metadata?: boolean;
}

export class BatchUpdateRowsQuery extends UserFieldNamesQuery {
  @Field({ kind: 'flag', required: false, description: 'Add `metadata.updated_field_ids` to the answer.' })
  include_metadata?: boolean;
}

export class GetRowQuery extends UserFieldNamesQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: '`metadata` adds the row metadata.' })
  include?: string;
}

export class MoveRowQuery extends UserFieldNamesQuery {
  @Field({ kind: 'id', required: false, description: 'Move before this row (last when absent).' })
  before_id?: number;
}

/** What narrows and orders a row listing: shared by the rows list, adjacent rows and the grid view. */
export class RowSelectionQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Rows with a cell containing this text (or with this id).' })
  search?: string;

  @Field({
    kind: 'choice',
    choices: SEARCH_MODES,
    required: false,
    description: 'How `search` matches: `compat` (default), a cell contains the text; `full-text-with-count`, cells hold its words (the last one as a prefix), indexed.',
  })
  search_mode?: (typeof SEARCH_MODES)[number];
}

export const FILTER_PARAMETER = {
  name: 'filter__{field}__{type}',
  pattern: /^filter__.+__.+$/,
  description:
    'A filter: `field_<id>` (or the name with `user_field_names`) and a filter type, e.g. `filter__field_1__contains=abc`; `field_created_on` and `field_updated_on` filter on the rows\' own timestamps, e.g. `filter__field_created_on__date_after=2024-01-01T00:00:00Z`; other names are ignored; `filter__field_id__in=1,2` keeps those rows.',
  example: 'filter__field_1__contains',
};

@DynamicQuery(FILTER_PARAMETER)
export class FilteredRowsQuery extends RowSelectionQuery {
  /** The `filter__…` parameters the pipe kept. */
  [parameter: string]: unknown;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'A JSON filter tree (`{"filter_type": "AND", "filters": [...], "groups": [...]}`), instead of `filter__` parameters.' })
  filters?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: '`AND` (default) or `OR`: how the `filter__` parameters combine.' })
  filter_type?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated fields, `-` for descending, e.g. `-field_1,field_2`.' })
  order_by?: string;
}

export class ListRowsQuery extends FilteredRowsQuery {
  @Field({ kind: 'flag', required: false, description: 'Answer and accept field names instead of `field_<id>` keys.' })
  user_field_names?: boolean;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (1 when absent or invalid).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows per page (100 when absent or invalid).' })
  size?: number;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only these comma-separated fields.' })
  include?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'All fields but these comma-separated ones.' })
  exclude?: string;

  @Field({ kind: 'id', required: false, description: "Apply this view's filters and sorts too." })
  view_id?: number;
}

export class AdjacentRowQuery extends RowSelectionQuery {
  @Field({ kind: 'flag', required: false, description: 'Answer and accept field names instead of `field_<id>` keys.' })
  user_field_names?: boolean;

  @Field({ kind: 'flag', required: false, description: 'The previous row instead of the next.' })
  previous?: boolean;

  @Field({ kind: 'id', required: false, description: "In this view's order and filters." })
  view_id?: number;
}

@DynamicQuery({
  name: 'table__{id}',
  pattern: /^table__\d+$/,
  description: 'Comma-separated row ids of the table with this id, e.g. `table__1=1,2`.',
  example: 'table__1',
  refuseOthers: { error: "Only table Id prefixed by 'table__' are allowed as parameter.", code: 'invalid_parameter' },
})
export class RowNamesQuery {
  [parameter: string]: unknown;
}
