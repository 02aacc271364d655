import { Injectable } from '@nestjs/common';
import type { ApplicationEntity } from '../../applications/application.entity';
import { ApplicationsService } from '../../applications/applications.service';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { UserEntity } from '../../users/user.entity';
import type { WorkspaceEntity } from '../../workspaces/workspace.entity';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { TablesService } from '../tables/tables.service';
import { EXAMPLE_CUSTOMERS, EXAMPLE_PROJECTS } from './example-tables';

/**
 * The example a new account gets (spec decision 2): "{name}'s workspace" with the database
 * "{name}'s company" and its tables Customers and Projects with their rows.
 */
@Injectable()
export class ExampleWorkspaceService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
    private readonly tables: TablesService,
  ) {}

  create(user: UserEntity): Promise<WorkspaceEntity> {
    return this.db.run(async () => {
      const workspace = await this.workspaces.create(user, `${user.firstName}'s workspace`);
      const fill = (database: ApplicationEntity) => this.fillDatabase(database, user);
      await this.applications.createInWorkspace(user, workspace.id, { name: `${user.firstName}'s company`, type: 'database' }, fill);
      return workspace;
    });
  }

  private async fillDatabase(database: ApplicationEntity, user: UserEntity): Promise<void> {
    await this.tables.createTable(database, 'Customers', EXAMPLE_CUSTOMERS, user.id);
    await this.tables.createTable(database, 'Projects', EXAMPLE_PROJECTS, user.id);
  }
}
