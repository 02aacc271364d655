import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { UserEntity } from '../users/user.entity';
import type { WorkspaceEntity } from '../workspaces/workspace.entity';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { ApplicationsService } from './applications.service';

/**
 * The example a new account gets (spec decision 2): "{name}'s workspace" with the database
 * "{name}'s company", which the database application type fills with its example tables.
 */
@Injectable()
export class ExampleWorkspaceService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
  ) {}

  create(user: UserEntity): Promise<WorkspaceEntity> {
    return this.db.run(async () => {
      const workspace = await this.workspaces.create(user, `${user.firstName}'s workspace`);
      await this.applications.createInWorkspace(user, workspace.id, { name: `${user.firstName}'s company`, type: 'database', example: true });
      return workspace;
    });
  }
}
