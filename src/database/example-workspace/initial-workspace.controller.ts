import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import type { UserEntity } from '../../users/user.entity';
import { WorkspaceItemJson } from '../../workspaces/workspace.serializer';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { ExampleWorkspaceService } from './example-workspace.service';

@ApiTags('Workspaces')
@Authentication('JWT')
@Controller('api/workspaces/create-initial-workspace')
export class InitialWorkspaceController {
  constructor(
    private readonly example: ExampleWorkspaceService,
    private readonly workspaces: WorkspacesService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_initial_workspace', summary: "Creates the example workspace \"{name}'s workspace\"." })
  @ApiOkResponse({ type: WorkspaceItemJson })
  async create(@CurrentUser() user: UserEntity): Promise<WorkspaceItemJson> {
    const workspace = await this.example.create(user);
    return this.workspaces.item(workspace.id, user.id);
  }
}
