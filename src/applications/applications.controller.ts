import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import type { UserEntity } from '../users/user.entity';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import { ApplicationJobsService } from './application-jobs.service';
import { ApplicationJson } from './application.serializer';
import { CreateApplicationDto, OrderApplicationsDto, RenameApplicationDto } from './applications.dto';
import { ApplicationsService } from './applications.service';

@ApiTags('Applications')
@Authentication('JWT')
@Controller('api/applications')
export class ApplicationsController {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly jobs: ApplicationJobsService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'list_all_applications', summary: "Applications of all the user's workspaces." })
  @ApiOkResponse({ type: [ApplicationJson] })
  listAll(@CurrentUser() user: UserEntity): Promise<ApplicationJson[]> {
    return this.applications.listForUser(user);
  }

  @Get('workspace/:workspaceId')
  @ApiOperation({ operationId: 'list_applications', summary: 'Applications of one workspace.' })
  @ApiOkResponse({ type: [ApplicationJson] })
  list(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number): Promise<ApplicationJson[]> {
    return this.applications.listForWorkspace(user, workspaceId);
  }

  @Post('workspace/:workspaceId')
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_application', summary: 'Creates an application in a workspace.' })
  @ApiOkResponse({ type: ApplicationJson })
  async create(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: CreateApplicationDto): Promise<ApplicationJson> {
    const application = await this.applications.create(user, workspaceId, { name: body.name, type: body.type, initWithData: body.init_with_data });
    return this.applications.serializeOne(application);
  }

  @Post('workspace/:workspaceId/order')
  @HttpCode(204)
  @ApiOperation({ operationId: 'order_applications', summary: 'Orders the applications of a workspace.' })
  async order(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: OrderApplicationsDto): Promise<void> {
    await this.applications.order(user, workspaceId, body.application_ids);
  }

  @Get(':applicationId')
  @ApiOperation({ operationId: 'get_application', summary: 'One application.' })
  @ApiOkResponse({ type: ApplicationJson })
  get(@CurrentUser() user: UserEntity, @IdParam('applicationId') id: number): Promise<ApplicationJson> {
    return this.applications.get(user, id);
  }

  @Patch(':applicationId')
  @ApiOperation({ operationId: 'update_application', summary: 'Renames an application.' })
  @ApiOkResponse({ type: ApplicationJson })
  rename(@CurrentUser() user: UserEntity, @IdParam('applicationId') id: number, @Body() body: RenameApplicationDto): Promise<ApplicationJson> {
    return this.applications.update(user, id, body.name);
  }

  @Post(':applicationId/duplicate/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'duplicate_application_async', summary: 'Duplicates an application in a `duplicate_application` job.' })
  duplicate(@CurrentUser() user: UserEntity, @IdParam('applicationId') id: number): Promise<Record<string, unknown>> {
    return this.jobs.duplicateAsync(user, id);
  }

  @Delete(':applicationId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_application', summary: 'Moves an application to the trash.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('applicationId') id: number): Promise<void> {
    await this.applications.delete(user, id);
  }
}
