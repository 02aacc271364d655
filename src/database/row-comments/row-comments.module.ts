import { Module, OnModuleInit } from '@nestjs/common';
import { NotificationsModule } from '../../notifications/notifications.module';
import { DatabaseModule } from '../database.module';
import { CommentNotifications } from './comment-notifications';
import { RowMetadataRegistry } from '../rows/row-metadata';
import { RowCommentCountMetadataType, RowCommentsNotificationModeMetadataType } from './row-comment-metadata';
import { RowCommentRepository } from './row-comment.repository';
import { RowCommentsController } from './row-comments.controller';
import { RowCommentsService } from './row-comments.service';
import { OwnedSchemaModule } from '../../core/database/owned-schema';
import { RowCommentEntity, RowCommentsNotificationModeEntity } from './row-comment.entity';

/**
 * Row comments (Baserow premium, an ordinary feature here): comments with mentions on rows,
 * per-row notification modes, and the two row metadata types rows carry.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [RowCommentEntity, RowCommentsNotificationModeEntity] }), DatabaseModule, NotificationsModule],
  controllers: [RowCommentsController],
  providers: [RowCommentRepository, RowCommentsService, CommentNotifications, RowCommentCountMetadataType, RowCommentsNotificationModeMetadataType],
  exports: [RowCommentsService],
})
export class RowCommentsModule implements OnModuleInit {
  constructor(
    private readonly metadata: RowMetadataRegistry,
    private readonly count: RowCommentCountMetadataType,
    private readonly mode: RowCommentsNotificationModeMetadataType,
  ) {}

  onModuleInit(): void {
    this.metadata.register(this.count);
    this.metadata.register(this.mode);
  }
}
