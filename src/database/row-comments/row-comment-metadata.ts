import { Injectable } from '@nestjs/common';
import { RowMetadataType } from '../rows/row-metadata';
import { RowCommentRepository } from './row-comment.repository';

/** `row_comment_count`: live comments of each row that has any. */
@Injectable()
export class RowCommentCountMetadataType implements RowMetadataType {
  readonly type = 'row_comment_count';

  constructor(private readonly repo: RowCommentRepository) {}

  forRows(tableId: number, rowIds: number[]): Promise<Map<number, unknown>> {
    return this.repo.countsOfRows(tableId, rowIds);
  }
}

/** `row_comments_notification_mode`: the user's mode of each row where it is not the default (`mentions`). */
@Injectable()
export class RowCommentsNotificationModeMetadataType implements RowMetadataType {
  readonly type = 'row_comments_notification_mode';

  constructor(private readonly repo: RowCommentRepository) {}

  async forRows(tableId: number, rowIds: number[], userId: number | null): Promise<Map<number, unknown>> {
    return userId === null ? new Map() : this.repo.modesOfRows(tableId, rowIds, userId);
  }
}
