import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ApplicationsModule } from '../applications/applications.module';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { DatabaseModule } from '../database/database.module';
import { JobsModule } from '../jobs/jobs.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { SnapshotCleanup } from './snapshot-cleanup';
import { SNAPSHOT_ENTITIES } from './snapshot.entity';
import { SnapshotRepository } from './snapshot.repository';
import { SnapshotStore } from './snapshot-store';
import { SnapshotsController } from './snapshots.controller';
import { SnapshotsService } from './snapshots.service';

/**
 * Application snapshots (`/api/snapshots/`): their metadata, their compressed documents in the
 * file storage, the create and restore jobs, and the hourly cleanup.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: SNAPSHOT_ENTITIES }), ApplicationsModule, DatabaseModule, JobsModule, WorkspacesModule, ActionsModule],
  controllers: [SnapshotsController],
  providers: [SnapshotRepository, SnapshotStore, SnapshotsService, SnapshotCleanup],
  exports: [SnapshotsService, SnapshotCleanup],
})
export class SnapshotsModule {}
