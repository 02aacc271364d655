import { Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { ApiError } from '../core/errors/api-error';
import { UnitOfWork } from '../core/database/unit-of-work';
import { FieldsService } from '../database/fields/fields.service';
import { tableScope } from '../database/table-context';
import { PermissionService, TableOperations as T } from '../permissions';
import type { FieldWriteRole } from '../permissions/field-write-rules';
import type { UserEntity } from '../users/user.entity';
import type { FieldPermissionsJson } from './field-permissions.dto';
import { FieldPermissionRepository } from './field-permission.repository';

/** What `update_field_permissions` records: the rule set and the one it replaced (its undo). */
export interface UpdateFieldPermissionsParams {
  tableId: number;
  databaseId: number;
  fieldId: number;
  role: FieldWriteRole;
  allowInForms: boolean;
  originalRole: FieldWriteRole;
  originalAllowInForms: boolean;
}

/**
 * Baserow enterprise's field permissions: who may write a field's cells (EDITOR and above by
 * default; BUILDER, ADMIN or NOBODY when set) and whether forms may write it anyway. Read and
 * changed by those whose role allows `database.table.field.read_permissions` /
 * `update_permissions` (BUILDER and ADMIN); a change is the undoable `update_field_permissions`
 * and tells the workspace `field_permissions_updated`.
 */
@Injectable()
export class FieldPermissionsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly fields: FieldsService,
    private readonly permissions: PermissionService,
    private readonly repo: FieldPermissionRepository,
    private readonly actions: ActionLog,
  ) {}

  async get(user: UserEntity, fieldId: number): Promise<FieldPermissionsJson> {
    const { field, context } = await this.fields.require(user, fieldId, T.readField);
    await this.permissions.require(user.id, T.readFieldPermissions, tableScope(context.table, context.workspaceId));
    const rule = await this.repo.ofField(field.id);
    return { role: rule?.role ?? 'EDITOR', allow_in_forms: rule?.allowInForms ?? true, field_id: field.id };
  }

  /** EDITOR is the default: it removes the field's rule (and forms may write the field). */
  async update(user: UserEntity, fieldId: number, role: FieldWriteRole, allowInFormsAsked: boolean): Promise<FieldPermissionsJson> {
    return this.db.run(async () => {
      const { field, context } = await this.fields.require(user, fieldId, T.readField);
      const scope = tableScope(context.table, context.workspaceId);
      await this.permissions.require(user.id, T.updateFieldPermissions, scope);
      const original = await this.repo.ofField(field.id);
      const allowInForms = role === 'EDITOR' ? true : allowInFormsAsked;
      if (role === 'EDITOR') await this.repo.remove(field.id);
      else await this.repo.save(field.id, role, allowInForms);
      const canWrite = await this.permissions.requireFieldWrites(user.id, scope, [field.id]).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError) return false;
          throw error;
        },
      );
      const params: UpdateFieldPermissionsParams = {
        tableId: context.table.id,
        databaseId: context.table.databaseId,
        fieldId: field.id,
        role,
        allowInForms,
        originalRole: original?.role ?? 'EDITOR',
        originalAllowInForms: original?.allowInForms ?? true,
      };
      this.actions.record('update_field_permissions', { ...params }, { scope: ActionScopes.table(context.table.id), workspaceId: context.workspaceId });
      this.db.record('field_permissions.updated', { workspaceId: context.workspaceId, databaseId: context.table.databaseId, tableId: context.table.id, fieldId: field.id, role, allowInForms });
      return { role, allow_in_forms: allowInForms, field_id: field.id, can_write_values: canWrite };
    });
  }
}
