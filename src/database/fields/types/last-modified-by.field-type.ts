import { Injectable } from '@nestjs/common';
import { WorkspaceRepository } from '../../../workspaces/workspace.repository';
import { SystemUserFieldType } from './created-by.field-type';

/** `last_modified_by`: the user who last changed a cell of the row. */
@Injectable()
export class LastModifiedByFieldType extends SystemUserFieldType {
  readonly type = 'last_modified_by';
  protected readonly systemColumn = 'last_modified_by_id';

  constructor(workspaces: WorkspaceRepository) {
    super(workspaces);
  }
}
