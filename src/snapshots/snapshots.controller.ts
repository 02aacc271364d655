import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { SnapshotJson } from './snapshot.serializer';
import { CreateSnapshotDto } from './snapshots.dto';
import { SnapshotsService } from './snapshots.service';

@ApiTags('Snapshots')
@Authentication('JWT')
@Controller('api/snapshots')
export class SnapshotsController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Get('application/:applicationId')
  @ApiOperation({ operationId: 'list_snapshots', summary: 'Lists snapshots that were created for a given application.' })
  @ApiOkResponse({ type: [SnapshotJson] })
  list(@CurrentUser() user: UserEntity, @IdParam('applicationId') applicationId: number): Promise<SnapshotJson[]> {
    return this.snapshots.list(user, applicationId);
  }

  @Post('application/:applicationId')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({
    operationId: 'create_snapshot',
    summary: 'Creates a snapshot of an application in a `create_snapshot` job: its state at this point in time, restorable later.',
  })
  create(@CurrentUser() user: UserEntity, @IdParam('applicationId') applicationId: number, @Body() body: CreateSnapshotDto): Promise<Record<string, unknown>> {
    return this.snapshots.startCreate(user, applicationId, body.name);
  }

  @Post(':snapshotId/restore')
  @HttpCode(200)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({
    operationId: 'restore_snapshot',
    summary:
      'Restores a snapshot in a `restore_snapshot` job: a new application in the workspace of the original, named after the snapshot (a number added when the name is taken). The original is unaffected.',
  })
  restore(@CurrentUser() user: UserEntity, @IdParam('snapshotId') snapshotId: number): Promise<Record<string, unknown>> {
    return this.snapshots.startRestore(user, snapshotId);
  }

  @Delete(':snapshotId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_snapshot', summary: 'Deletes a snapshot for good; the application and the applications restored from it are unaffected.' })
  async delete(@CurrentUser() user: UserEntity, @IdParam('snapshotId') snapshotId: number): Promise<void> {
    await this.snapshots.delete(user, snapshotId);
  }
}
