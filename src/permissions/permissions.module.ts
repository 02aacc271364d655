import { Global, Module } from '@nestjs/common';
import { PermissionRepository } from './permission.repository';
import { PermissionService } from './permission.service';

/** The one permission check, available to every module. */
@Global()
@Module({
  providers: [PermissionRepository, PermissionService],
  exports: [PermissionService],
})
export class PermissionsModule {}
