import { Injectable } from '@nestjs/common';
import { SettingsService } from '../settings/settings.service';
import type { UserEntity } from '../users/user.entity';
import { PermissionService } from '../permissions';
import { ADMIN_ONLY_OPERATIONS } from '../permissions/roles';
import { TEMPLATE_OPERATION_NAMES } from '../permissions/template-reads';
import { WorkspaceUserEntity } from './workspace.entity';

/** One permission manager's answer, as Baserow's web client reads it. */
export interface PermissionEntry {
  name: string;
  permissions: unknown;
}

/**
 * The permission objects of Baserow's core permission managers, in Baserow's order
 * (`core`, `setting_operation`, `staff`, `allow_if_template`, `member`, `basic`). Managers
 * that have nothing to say are left out, as Baserow does.
 */
@Injectable()
export class PermissionsService {
  constructor(
    private readonly settings: SettingsService,
    private readonly roles: PermissionService,
  ) {}

  private async global(user: UserEntity): Promise<PermissionEntry[]> {
    const { allowGlobalWorkspaceCreation } = await this.settings.get();
    return [
      { name: 'core', permissions: ['list_workspaces'] },
      {
        name: 'setting_operation',
        permissions: allowGlobalWorkspaceCreation
          ? { staff_only_operations: [], always_allowed_operations: ['create_workspace'] }
          : { staff_only_operations: ['create_workspace'], always_allowed_operations: [] },
      },
      { name: 'staff', permissions: { staff_only_operations: ['settings.update'], is_staff: user.isStaff } },
      {
        name: 'allow_if_template',
        permissions: { allowed_operations_on_templates: TEMPLATE_OPERATION_NAMES, workspace_template_ids: await this.roles.templateWorkspaceIds() },
      },
    ];
  }

  /** Outside any workspace: the `permissions` of token-auth, token-refresh and sign-up. */
  async forUser(user: UserEntity): Promise<PermissionEntry[]> {
    return [...(await this.global(user)), { name: 'member', permissions: false }];
  }

  /**
   * In a workspace: Baserow enterprise's `write_field_values` manager object when the workspace
   * has field permissions, and its `role` manager object when the member has an enterprise role
   * or a role assignment, before `basic` (the web client asks the managers in order).
   */
  async forWorkspace(user: UserEntity, membership: WorkspaceUserEntity): Promise<PermissionEntry[]> {
    const role = await this.roles.permissionsObject(user.id, membership.workspaceId);
    const fieldWrites = await this.roles.fieldWritePolicy(user.id, membership.workspaceId);
    return [
      ...(await this.global(user)),
      ...(fieldWrites ? [{ name: 'write_field_values', permissions: fieldWrites }] : []),
      ...(role ? [{ name: 'role', permissions: role }] : []),
      { name: 'basic', permissions: { admin_only_operations: ADMIN_ONLY_OPERATIONS, is_admin: membership.permissions === 'ADMIN' } },
    ];
  }
}
