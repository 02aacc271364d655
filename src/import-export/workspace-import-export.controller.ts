import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { IdParam } from '../core/http/params';
import { StreamedBody } from '../core/http/streamed-body';
import { Answer, RequestBody } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { UserEntity } from '../users/user.entity';
import { ExportWorkspaceDto, ImportWorkspaceDto } from './import-export.dto';
import { WorkspaceExportService } from './workspace-export.service';
import { WorkspaceImportService } from './workspace-import.service';

const RESOURCE_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, size: { type: 'integer' } },
  required: ['id', 'name', 'size'],
};

/** Workspace export and import in Baserow's format (Baserow's `api/workspaces` export/import views). */
@ApiTags('Workspaces')
@Authentication('JWT')
@Controller('api/workspaces/:workspaceId')
export class WorkspaceImportExportController {
  constructor(
    private readonly exports: WorkspaceExportService,
    private readonly imports: WorkspaceImportService,
  ) {}

  @Post('export/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'export_workspace_applications_async', summary: 'Exports the applications of a workspace (all, or `application_ids`) to a zip in an `export_applications` job.' })
  exportAsync(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: ExportWorkspaceDto): Promise<Record<string, unknown>> {
    return this.exports.exportAsync(user, workspaceId, body);
  }

  @Get('export')
  @Answer({ type: 'object', properties: { results: { type: 'array', items: Schemas.ref('Job') } }, required: ['results'] })
  @ApiOperation({ operationId: 'list_workspace_exports', summary: "The user's last finished exports of the workspace (at most 5)." })
  listExports(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number): Promise<{ results: Record<string, unknown>[] }> {
    return this.exports.listExports(user, workspaceId);
  }

  @Post('import/upload-file')
  @HttpCode(200)
  @StreamedBody()
  @RequestBody({ type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } }, { contentType: 'multipart/form-data' })
  @Answer(RESOURCE_SCHEMA)
  @ApiOperation({ operationId: 'import_resource_upload_file', summary: 'Uploads a workspace export zip (checked: manifest, signature) as a resource to import.' })
  upload(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ id: number; name: string; size: number }> {
    return this.imports.upload(user, workspaceId, req, res);
  }

  @Post('import/async')
  @HttpCode(202)
  @Answer(Schemas.ref('Job'))
  @ApiOperation({ operationId: 'import_workspace_applications_async', summary: 'Imports the applications of an uploaded resource in an `import_applications` job.' })
  importAsync(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @Body() body: ImportWorkspaceDto): Promise<Record<string, unknown>> {
    return this.imports.importAsync(user, workspaceId, body);
  }

  @Delete('import/:resourceId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'import_export_resource', summary: 'Deletes an uploaded resource (its owner only).' })
  async deleteResource(@CurrentUser() user: UserEntity, @IdParam('workspaceId') workspaceId: number, @IdParam('resourceId') resourceId: number): Promise<void> {
    await this.imports.deleteResource(user, workspaceId, resourceId);
  }
}
