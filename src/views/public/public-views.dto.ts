import { Field } from '../../core/validation/field';
import { FilteredRowsQuery } from '../../database/rows/rows.query';

export class PublicViewAuthDto {
  @Field({ kind: 'string', description: 'The password of the shared view.' })
  password: string;
}

export class PublicGridRowsQuery extends FilteredRowsQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated visible fields to group by (sorted first), e.g. `field_1,-field_2`.' })
  group_by?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: '`field_options` adds the options of the visible fields.' })
  include?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only these comma-separated fields (of the visible ones).' })
  include_fields?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'All visible fields but these comma-separated ones.' })
  exclude_fields?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (with `size`).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows per page.' })
  size?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows from `offset` (limit/offset pagination when given).' })
  limit?: number;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Rows to skip (with `limit`).' })
  offset?: number;
}

export class PublicLookupQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only linked rows whose primary value contains this text.' })
  search?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page.' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows per page (at most the row page size limit).' })
  size?: number;
}
