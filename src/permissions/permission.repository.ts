import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { WorkspaceUserEntity } from '../workspaces/workspace.entity';

/** What the permission check reads: the actor's membership of a workspace. */
@Injectable()
export class PermissionRepository {
  constructor(private readonly db: UnitOfWork) {}

  /** The member's `workspace_user.permissions`, or null when the user is not a member. */
  async memberRole(workspaceId: number, userId: number): Promise<string | null> {
    const found = await this.db.manager.getRepository(WorkspaceUserEntity).findOne({ select: { id: true, permissions: true }, where: { workspaceId, userId } });
    return found?.permissions ?? null;
  }
}
