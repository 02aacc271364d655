import { Global, Module, OnModuleInit } from '@nestjs/common';
import { ActionTypeRegistry } from '../actions/action-type';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { DatabaseModule } from '../database/database.module';
import { FieldWriteRules } from '../permissions/field-write-rules';
import { FieldPermissionEntity } from './field-permission.entity';
import { FieldPermissionRepository } from './field-permission.repository';
import { UpdateFieldPermissionsActionType } from './field-permissions.action-type';
import { FieldPermissionsController } from './field-permissions.controller';
import { FieldPermissionsService } from './field-permissions.service';
import { FieldWriteRulesFromTable } from './field-write-rules.from-table';

/**
 * Field permissions (`/api/field-permissions/`), Baserow enterprise's. Global because it provides
 * `FieldWriteRules`, the seam through which the permission check and forms read the rules;
 * registers its undoable action, `update_field_permissions`.
 */
@Global()
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [FieldPermissionEntity] }), DatabaseModule],
  controllers: [FieldPermissionsController],
  providers: [FieldPermissionRepository, FieldPermissionsService, UpdateFieldPermissionsActionType, { provide: FieldWriteRules, useClass: FieldWriteRulesFromTable }],
  exports: [FieldWriteRules],
})
export class FieldPermissionsModule implements OnModuleInit {
  constructor(
    private readonly registry: ActionTypeRegistry,
    private readonly actionType: UpdateFieldPermissionsActionType,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.actionType);
  }
}
