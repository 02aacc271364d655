import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../../applications/applications.module';
import { WorkspacesModule } from '../../workspaces/workspaces.module';
import { DatabaseModule } from '../database.module';
import { ExampleWorkspaceService } from './example-workspace.service';
import { InitialWorkspaceController } from './initial-workspace.controller';

/** The example workspace of sign-up and of `create-initial-workspace`: a workspace, a database and its example tables. */
@Module({
  imports: [DatabaseModule, WorkspacesModule, ApplicationsModule],
  controllers: [InitialWorkspaceController],
  providers: [ExampleWorkspaceService],
  exports: [ExampleWorkspaceService],
})
export class ExampleWorkspaceModule {}
