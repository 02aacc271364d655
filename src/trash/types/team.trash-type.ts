import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { TeamOperations as TM } from '../../permissions';
import { RoleAssignmentRepository } from '../../permissions/role-assignment.repository';
import { TeamEntity } from '../../teams/team.entity';
import { TeamRepository } from '../../teams/team.repository';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** A team: restored with its subjects and roles (its members told `permissions_updated`); deleted for good with them. */
@Injectable()
export class TeamTrashType implements TrashType {
  readonly type = 'team';
  readonly restoreOperation = TM.restore;
  readonly requiresParentId = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly teams: TeamRepository,
    private readonly roles: RoleAssignmentRepository,
    private readonly trash: TrashService,
    private readonly parents: TrashParents,
  ) {}

  readonly inTablesSql = null;

  async tableOf(): Promise<number | null> {
    return null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.teams.findAny(entry.trashItemId))?.trashed ?? false;
  }

  hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    return this.parents.workspaceTrashed(entry.workspaceId);
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    await this.trash.untrashItem(TeamEntity, entry.trashItemId);
    this.db.record('permissions.updated', { workspaceId: entry.workspaceId, userIds: [], teamIds: [entry.trashItemId] });
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    await this.roles.removeOfTeam(entry.trashItemId);
    await this.teams.delete(entry.trashItemId);
  }
}
