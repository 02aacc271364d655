import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApplicationsModule } from '../../applications/applications.module';
import { DatabaseModule } from '../../database/database.module';
import { ViewsModule } from '../../views/views.module';
import { WorkspacesModule } from '../../workspaces/workspaces.module';
import { ActionTypeRegistry } from '../action-type';
import { APPLICATION_ACTION_TYPES } from './applications.action-types';
import { FIELD_ACTION_TYPES } from './fields.action-types';
import { ROW_ACTION_TYPES } from './rows.action-types';
import { TABLE_ACTION_TYPES } from './tables.action-types';
import { VIEW_FILTER_ACTION_TYPES } from './view-filters.action-types';
import { VIEW_SORT_ACTION_TYPES } from './view-sorts.action-types';
import { VIEW_ACTION_TYPES } from './views.action-types';
import { WORKSPACE_ACTION_TYPES } from './workspaces.action-types';

const ACTION_TYPES = [...ROW_ACTION_TYPES, ...FIELD_ACTION_TYPES, ...VIEW_ACTION_TYPES, ...VIEW_SORT_ACTION_TYPES, ...VIEW_FILTER_ACTION_TYPES, ...TABLE_ACTION_TYPES, ...APPLICATION_ACTION_TYPES, ...WORKSPACE_ACTION_TYPES];

/** The core's undoable action types, one file per family, registered when the app starts. */
@Module({
  imports: [WorkspacesModule, ApplicationsModule, DatabaseModule, ViewsModule],
  providers: [...ACTION_TYPES],
})
export class ActionTypesModule implements OnModuleInit {
  constructor(
    private readonly registry: ActionTypeRegistry,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const type of ACTION_TYPES) this.registry.register(this.moduleRef.get(type));
  }
}
