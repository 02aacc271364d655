import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ApplicationRepository } from './application.repository';
import { ApplicationTypeRegistry } from './application-type';
import { ApplicationsController, InitialWorkspaceController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { ExampleWorkspaceService } from './example-workspace.service';

@Module({
  imports: [WorkspacesModule],
  controllers: [ApplicationsController, InitialWorkspaceController],
  providers: [ApplicationRepository, ApplicationTypeRegistry, ApplicationsService, ExampleWorkspaceService],
  exports: [ApplicationRepository, ApplicationTypeRegistry, ApplicationsService, ExampleWorkspaceService],
})
export class ApplicationsModule {}
