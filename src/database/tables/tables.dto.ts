import { Field } from '../../core/validation/field';

export class CreateTableDto {
  @Field({ kind: 'string', max: 255, example: 'Customers' })
  name: string;

  @Field({
    kind: 'list',
    of: { kind: 'list', of: { kind: 'any' } },
    minItems: 1,
    required: false,
    description: 'Rows of cells; every column becomes a text field. Without it the table gets the example fields and two empty rows.',
  })
  data?: unknown[][];

  @Field({ kind: 'bool', required: false, default: false, description: 'The first row of `data` holds the field names.' })
  first_row_header: boolean;
}

export class RenameTableDto {
  @Field({ kind: 'string', max: 255, required: false })
  name?: string;
}

export class OrderTablesDto {
  @Field({ kind: 'list', of: { kind: 'int' } })
  table_ids: number[];
}
