import { Global, Module } from '@nestjs/common';
import { ActionLog } from './action-log';
import { ActionRepository } from './action.repository';
import { ActionTypeRegistry } from './action-type';
import { ActionsController } from './actions.controller';
import { ActionsService } from './actions.service';

/**
 * Actions: the record of what people and tokens do (`core_action`), the registry of action
 * types and `PATCH /api/user/undo/`, `/redo/`. Global, because every module's writes record
 * their actions through ActionLog; the core's action types register in ActionTypesModule.
 */
@Global()
@Module({
  controllers: [ActionsController],
  providers: [ActionLog, ActionRepository, ActionTypeRegistry, ActionsService],
  exports: [ActionLog, ActionTypeRegistry],
})
export class ActionsModule {}
