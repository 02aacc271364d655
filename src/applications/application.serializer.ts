import { ApiProperty } from '@nestjs/swagger';
import { WorkspaceJson } from '../workspaces/workspace.serializer';

export class ApplicationJson {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() order: number;
  @ApiProperty({ example: 'database' }) type: string;
  @ApiProperty({ type: WorkspaceJson }) workspace: WorkspaceJson;
  @ApiProperty() created_on: string;
  @ApiProperty({ required: false, description: 'Database applications: their tables `{id, name, order, database_id, data_sync}`.', type: 'array', items: { type: 'object' } })
  tables?: unknown[];
}
