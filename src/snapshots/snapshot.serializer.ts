import { ApiProperty } from '@nestjs/swagger';
import { toApiDateTime } from '../core/database/columns';
import type { SnapshotEntity } from './snapshot.entity';

class SnapshotCreatorJson {
  @ApiProperty()
  username: string;
}

/** A snapshot as Baserow's SnapshotSerializer answers it. */
export class SnapshotJson {
  @ApiProperty()
  id: number;

  @ApiProperty({ maxLength: 160 })
  name: string;

  @ApiProperty({ description: 'The id of the application the snapshot was taken of.' })
  snapshot_from_application: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: SnapshotCreatorJson, nullable: true })
  created_by: SnapshotCreatorJson | null;
}

export function serializeSnapshot(snapshot: SnapshotEntity, createdByUsername: string | null): SnapshotJson {
  return {
    id: snapshot.id,
    name: snapshot.name,
    snapshot_from_application: snapshot.applicationId ?? 0,
    created_at: toApiDateTime(snapshot.createdAt)!,
    created_by: createdByUsername === null ? null : { username: createdByUsername },
  };
}
