import { Injectable } from '@nestjs/common';
import { ApplicationOperations as A } from '../../permissions';
import { ApplicationEntity } from '../../applications/application.entity';
import { ApplicationRepository } from '../../applications/application.repository';
import { ApplicationsService } from '../../applications/applications.service';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** An application: restored with `application_created`; deleted for good with its data (a database's tables). */
@Injectable()
export class ApplicationTrashType implements TrashType {
  readonly type = 'application';
  readonly restoreOperation = A.restore;
  readonly requiresParentId = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly applications: ApplicationRepository,
    private readonly applicationsService: ApplicationsService,
    private readonly parents: TrashParents,
    private readonly trash: TrashService,
  ) {}

  readonly inTablesSql = null;

  async tableOf(): Promise<number | null> {
    return null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.applications.findAny(entry.trashItemId))?.trashed ?? false;
  }

  hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    return this.parents.workspaceTrashed(entry.workspaceId);
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    await this.trash.untrashItem(ApplicationEntity, entry.trashItemId);
    this.db.recordAsSystem('application.created', { applicationId: entry.trashItemId, workspaceId: entry.workspaceId });
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    const application = await this.applications.findAny(entry.trashItemId);
    if (!application) return;
    await this.applicationsService.permanentlyDelete(application);
    await this.trash.forgetEntriesOf({ applicationId: application.id });
  }
}
