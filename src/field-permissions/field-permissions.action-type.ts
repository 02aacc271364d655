import { Injectable } from '@nestjs/common';
import type { ActionContext, ActionType } from '../actions/action-type';
import { FieldPermissionsService, UpdateFieldPermissionsParams } from './field-permissions.service';

/** Baserow enterprise's `update_field_permissions` (scope `table<id>`): undone by setting the rule it replaced. */
@Injectable()
export class UpdateFieldPermissionsActionType implements ActionType<UpdateFieldPermissionsParams> {
  readonly type = 'update_field_permissions';

  constructor(private readonly service: FieldPermissionsService) {}

  async undo(params: UpdateFieldPermissionsParams, { user }: ActionContext): Promise<void> {
    await this.service.update(user, params.fieldId, params.originalRole, params.originalAllowInForms);
  }

  async redo(params: UpdateFieldPermissionsParams, { user }: ActionContext): Promise<void> {
    await this.service.update(user, params.fieldId, params.role, params.allowInForms);
  }
}
