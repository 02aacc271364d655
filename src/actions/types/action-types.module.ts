import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DatabaseModule } from '../../database/database.module';
import { ActionTypeRegistry } from '../action-type';
import { ROW_ACTION_TYPES } from './rows.action-types';

const ACTION_TYPES = [...ROW_ACTION_TYPES];

/** The core's undoable action types, one file per family, registered when the app starts. */
@Module({
  imports: [DatabaseModule],
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
