import { Injectable } from '@nestjs/common';
import { ApplicationRepository } from '../../applications/application.repository';
import { TableRepository } from '../../database/table.repository';
import { WorkspaceRepository } from '../../workspaces/workspace.repository';

/** What trash types ask of the items' parents: whether the table, database or workspace an item lives in is trashed. */
@Injectable()
export class TrashParents {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly applications: ApplicationRepository,
    private readonly tables: TableRepository,
  ) {}

  async workspaceTrashed(workspaceId: number): Promise<boolean> {
    return (await this.workspaces.findAnyWorkspace(workspaceId))?.trashed ?? true;
  }

  async applicationTrashed(applicationId: number): Promise<boolean> {
    const application = await this.applications.findAny(applicationId);
    return !application || application.trashed || (await this.workspaceTrashed(application.workspaceId));
  }

  /** The table itself, or its database or workspace, is trashed (or gone). */
  async tableTrashed(tableId: number): Promise<boolean> {
    const table = await this.tables.findAny(tableId);
    return !table || table.trashed || (await this.applicationTrashed(table.databaseId));
  }
}
