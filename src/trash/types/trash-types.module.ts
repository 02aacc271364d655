import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApplicationsModule } from '../../applications/applications.module';
import { DatabaseModule } from '../../database/database.module';
import { RowCommentsModule } from '../../database/row-comments/row-comments.module';
import { ViewsModule } from '../../views/views.module';
import { WorkspacesModule } from '../../workspaces/workspaces.module';
import { TrashTypeRegistry } from '../trash-type';
import { ApplicationTrashType } from './application.trash-type';
import { FieldTrashType } from './field.trash-type';
import { TrashParents } from './parents';
import { RowCommentTrashType } from './row-comment.trash-type';
import { RowsTrashType, RowTrashType } from './rows.trash-type';
import { TableTrashType } from './table.trash-type';
import { TeamTrashType } from './team.trash-type';
import { ViewTrashType } from './view.trash-type';
import { WorkspaceTrashType } from './workspace.trash-type';

const TRASH_TYPES = [WorkspaceTrashType, ApplicationTrashType, TableTrashType, FieldTrashType, ViewTrashType, RowTrashType, RowsTrashType, RowCommentTrashType, TeamTrashType];

/** The core's trashable types, one file each, registered with the trash when the app starts. */
@Module({
  imports: [WorkspacesModule, ApplicationsModule, DatabaseModule, ViewsModule, RowCommentsModule],
  providers: [TrashParents, ...TRASH_TYPES],
})
export class TrashTypesModule implements OnModuleInit {
  constructor(
    private readonly registry: TrashTypeRegistry,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const type of TRASH_TYPES) this.registry.register(this.moduleRef.get(type));
  }
}
