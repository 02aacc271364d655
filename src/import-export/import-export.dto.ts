import { Field } from '../core/validation/field';

/** Baserow's ExportApplicationsJobType request: `application_ids` (none or empty: all) and `only_structure`. */
export class ExportWorkspaceDto {
  @Field({ kind: 'list', of: { kind: 'int' }, allowEmpty: true, nullable: true, required: false, description: 'The application ids to export; none: every application of the workspace.' })
  application_ids?: number[] | null;

  @Field({ kind: 'bool', required: false, default: false, description: 'Only the structure (tables, fields, views), no rows.' })
  only_structure?: boolean;
}

/** Baserow's ImportApplicationsJobType request. */
export class ImportWorkspaceDto {
  @Field({ kind: 'int', min: 1, description: 'The id of the uploaded import resource.' })
  resource_id: number;

  @Field({ kind: 'list', of: { kind: 'int' }, allowEmpty: true, nullable: true, required: false, description: 'The ids (in the export) of the applications to import; none: all.' })
  application_ids?: number[] | null;
}
