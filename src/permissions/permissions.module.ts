import { Global, Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { PermissionRepository } from './permission.repository';
import { PermissionService } from './permission.service';
import { RoleAssignmentEntity } from './role-assignment.entity';
import { RoleAssignmentRepository } from './role-assignment.repository';
import { TeamSubjects } from './team-subjects';

/** The one permission check, with the role assignments it reads, available to every module. */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [RoleAssignmentEntity] })],
  providers: [PermissionRepository, PermissionService, RoleAssignmentRepository, TeamSubjects],
  exports: [PermissionService, RoleAssignmentRepository, TeamSubjects],
})
export class PermissionsModule {}
