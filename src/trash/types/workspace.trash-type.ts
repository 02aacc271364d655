import { Injectable } from '@nestjs/common';
import { WorkspaceOperations as W } from '../../permissions';
import { ApplicationsService } from '../../applications/applications.service';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { WorkspaceEntity } from '../../workspaces/workspace.entity';
import { WorkspaceRepository } from '../../workspaces/workspace.repository';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';

/** A workspace: restored with `group_restored` to each member; deleted for good with its applications' data. */
@Injectable()
export class WorkspaceTrashType implements TrashType {
  readonly type = 'workspace';
  readonly restoreOperation = W.restore;
  readonly requiresParentId = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly workspaces: WorkspaceRepository,
    private readonly applications: ApplicationsService,
    private readonly trash: TrashService,
  ) {}

  readonly inTablesSql = null;

  async tableOf(): Promise<number | null> {
    return null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.workspaces.findAnyWorkspace(entry.trashItemId))?.trashed ?? false;
  }

  async hasTrashedParent(): Promise<boolean> {
    return false;
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    await this.trash.untrashItem(WorkspaceEntity, entry.trashItemId);
    this.db.recordAsSystem('workspace.restored', { workspaceId: entry.trashItemId });
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    if (!(await this.workspaces.findAnyWorkspace(entry.trashItemId))) return;
    await this.applications.permanentlyDeleteOfWorkspaces([entry.trashItemId]);
    await this.workspaces.deleteWorkspace(entry.trashItemId);
    await this.trash.forgetEntriesOf({ workspaceId: entry.trashItemId });
  }
}
