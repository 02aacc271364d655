import { Field } from '../core/validation/field';

/** Baserow's SnapshotSerializer as a request: only the name is written. */
export class CreateSnapshotDto {
  @Field({ kind: 'string', max: 160, example: 'Before the migration' })
  name: string;
}
