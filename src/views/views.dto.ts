import { Field } from '../core/validation/field';

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
