import { Field } from '../core/validation/field';

export const APPLICATION_TYPES = ['database'] as const;

export class CreateApplicationDto {
  @Field({ kind: 'string', max: 160, example: 'My database' })
  name: string;

  @Field({ kind: 'choice', choices: APPLICATION_TYPES })
  type: string;

  @Field({ kind: 'bool', required: false, default: false, description: 'Databases: start with an example table.' })
  init_with_data: boolean;
}

/** A partial update, as Baserow's: an empty body changes nothing. The type cannot change. */
export class RenameApplicationDto {
  @Field({ kind: 'string', max: 160, required: false })
  name?: string;
}

export class OrderApplicationsDto {
  @Field({ kind: 'list', of: { kind: 'int' } })
  application_ids: number[];
}
