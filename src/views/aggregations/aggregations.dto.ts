import { DynamicQuery } from '../../core/validation/dynamic-query';
import { Field } from '../../core/validation/field';
import { FILTER_PARAMETER, RowSelectionQuery } from '../../database/rows/rows.query';

/** The grid's selection parameters (search, `filters`, `filter__…`, `filter_type`) and `include=total`. */
@DynamicQuery(FILTER_PARAMETER)
export class AggregationsQuery extends RowSelectionQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'A JSON filter tree replacing the saved filters.' })
  filters?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: '`AND` or `OR` for the `filter__…` parameters.' })
  filter_type?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: '`total` adds the number of rows of the selection.' })
  include?: string;

  [key: string]: unknown;
}

export class AggregationQuery extends AggregationsQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'The raw aggregation type (`empty_count`, `sum`, `median`, `distribution`, …).' })
  type?: string;
}
