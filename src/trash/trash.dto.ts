import { Field } from '../core/validation/field';

export class TrashContentsQuery {
  @Field({ kind: 'id', required: false, description: "Only this application's trash." })
  application_id?: number;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (1 when absent or invalid).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Entries per page (100 when absent or invalid; at most TRASH_PAGE_SIZE_LIMIT).' })
  size?: number;
}

export class EmptyTrashQuery {
  @Field({ kind: 'id', required: false, description: "Only this application's trash (and the application itself when trashed)." })
  application_id?: number;
}
