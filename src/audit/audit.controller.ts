import { Body, Controller, Get, HttpCode, Post, Query, Req, Type } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authentication, CurrentUser } from '../auth/decorators';
import { StaffOnly } from '../auth/staff.guard';
import { requestUrl } from '../core/http/pagination';
import { Answer } from '../openapi/decorators';
import type { UserEntity } from '../users/user.entity';
import type { Page } from '../admin/listing';
import { AuditLogExportDto, AuditLogQuery, AuditLookupQuery, AuditWorkspaceLookupQuery, parseApiDateTime } from './audit.dto';
import { AuditExportService } from './audit-export.service';
import { AuditEntryJson, AuditService, LookupJson } from './audit.service';
import { AUDIT_ENTRY_PAGE_SCHEMA, AUDIT_EXPORT_JOB_SCHEMA, LOOKUP_PAGE_SCHEMA } from './audit.schemas';
import { isoMicros } from '../database/rows/row.repository';

const time = (text: string | undefined): string | null => (text ? isoMicros(parseApiDateTime(text)!) : null);

/**
 * Baserow enterprise's audit log routes, served at `/api/audit-log/` and, as Baserow also mounts
 * them, at `/api/admin/audit-log/` (`prefix` keeps the two sets' operation ids apart).
 */
function auditLogController(path: string, prefix: string): Type<unknown> {
  @ApiTags('Audit log')
  @Authentication('JWT')
  @Controller(path)
  class AuditLogController {
    constructor(
      readonly audit: AuditService,
      readonly exports: AuditExportService,
    ) {}

    @Get()
    @Answer(AUDIT_ENTRY_PAGE_SCHEMA)
    @ApiOperation({ operationId: `${prefix}audit_log_list`, summary: 'Lists the audit log entries: every one for staff, those of `workspace_id` for its admins; filtered, sorted and paged.' })
    list(@CurrentUser() user: UserEntity, @Query() query: AuditLogQuery, @Req() req: Request): Promise<Page<AuditEntryJson>> {
      const filters = { userId: query.user_id, workspaceId: query.workspace_id, actionType: query.action_type, from: time(query.from_timestamp), to: time(query.to_timestamp), ipAddress: query.ip_address || null, search: query.search || null };
      return this.audit.list(user, { ...filters, page: query.page, size: query.size, sorts: query.sorts ?? null }, requestUrl(req));
    }

    @Get('users')
    @Answer(LOOKUP_PAGE_SCHEMA)
    @ApiOperation({ operationId: `${prefix}audit_log_users`, summary: 'The users to filter the audit log by (`{id, value}`: the e-mail), of `workspace_id` for its admins.' })
    users(@CurrentUser() user: UserEntity, @Query() query: AuditLookupQuery, @Req() req: Request): Promise<Page<LookupJson>> {
      return this.audit.users(user, { workspaceId: query.workspace_id, search: query.search, page: query.page, size: query.size }, requestUrl(req));
    }

    @Get('workspaces')
    @StaffOnly()
    @Answer(LOOKUP_PAGE_SCHEMA)
    @ApiOperation({ operationId: `${prefix}audit_log_workspaces`, summary: 'The workspaces to filter the audit log by (`{id, value}`: the name); staff only.' })
    workspaces(@Query() query: AuditWorkspaceLookupQuery, @Req() req: Request): Promise<Page<LookupJson>> {
      return this.audit.workspaceList(query, requestUrl(req));
    }

    @Get('action-types')
    @Answer(LOOKUP_PAGE_SCHEMA)
    @ApiOperation({ operationId: `${prefix}audit_log_action_types`, summary: 'The action types to filter the audit log by (`{id, value}`: the type and its short description), searched by description.' })
    actionTypes(@CurrentUser() user: UserEntity, @Query() query: AuditLookupQuery): Promise<Page<LookupJson>> {
      return this.audit.actionTypes(user, { workspaceId: query.workspace_id, search: query.search });
    }

    @Post('export')
    @HttpCode(202)
    @Answer(AUDIT_EXPORT_JOB_SCHEMA)
    @ApiOperation({ operationId: `${prefix}async_audit_log_export`, summary: 'Starts an `audit_log_export` job writing the filtered audit log to a CSV file.' })
    export(@CurrentUser() user: UserEntity, @Body() body: AuditLogExportDto): Promise<Record<string, unknown>> {
      return this.exports.start(user, body);
    }
  }
  return AuditLogController;
}

export const AuditLogController = auditLogController('api/audit-log', '');
export const AdminAuditLogController = auditLogController('api/admin/audit-log', 'admin_');
