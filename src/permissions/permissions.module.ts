import { Global, Module } from '@nestjs/common';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { PermissionRepository } from './permission.repository';
import { PermissionService } from './permission.service';
import { RoleAssignmentEntity } from './role-assignment.entity';
import { RoleAssignmentRepository } from './role-assignment.repository';

/**
 * The one permission check, with the role assignments it reads, available to every module. Teams
 * come through `TeamSubjects`, which the (global) teams module provides.
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [RoleAssignmentEntity] })],
  providers: [PermissionRepository, PermissionService, RoleAssignmentRepository],
  exports: [PermissionService, RoleAssignmentRepository],
})
export class PermissionsModule {}
