import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AuditCleanupService } from './audit-cleanup.service';
import { AuditExportService } from './audit-export.service';
import { AuditWriter } from './audit-writer';
import { AdminAuditLogController, AuditLogController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * The audit log: entries written from the action record in the acting transaction (AuditWriter),
 * read by staff and workspace admins (`/api/audit-log/`, `/api/admin/audit-log/`), exported as
 * CSV in a job, and deleted after BASEROW_ENTERPRISE_AUDIT_LOG_RETENTION_DAYS.
 */
@Module({
  imports: [JobsModule, WorkspacesModule],
  controllers: [AuditLogController, AdminAuditLogController],
  providers: [AuditRepository, AuditService, AuditWriter, AuditExportService, AuditCleanupService],
})
export class AuditModule {}
