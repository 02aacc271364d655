import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { Broadcaster } from './broadcaster';
import { encode } from './delivery';
import { tablePageGroup } from './pages/table.page';

type CommentEvent = DomainEvent<'row_comment.created' | 'row_comment.updated' | 'row_comment.deleted' | 'row_comment.restored'>;

/**
 * Row comment messages (§4.10): the comment as it is after the change, to the **table**
 * page (not the row page) without the originating socket; a notification mode change to
 * the user's own other sockets.
 */
@Injectable()
export class RowCommentsListener {
  constructor(private readonly broadcaster: Broadcaster) {}

  @OnEvent('row_comment.created')
  async created(event: DomainEvent<'row_comment.created'>): Promise<void> {
    await this.toTable('row_comment_created', event);
  }

  @OnEvent('row_comment.updated')
  async updated(event: DomainEvent<'row_comment.updated'>): Promise<void> {
    await this.toTable('row_comment_updated', event);
  }

  @OnEvent('row_comment.deleted')
  async deleted(event: DomainEvent<'row_comment.deleted'>): Promise<void> {
    await this.toTable('row_comment_deleted', event);
  }

  @OnEvent('row_comment.restored')
  async restored(event: DomainEvent<'row_comment.restored'>): Promise<void> {
    await this.toTable('row_comment_restored', event);
  }

  @OnEvent('row_comments.notification_mode_updated')
  async modeUpdated(event: DomainEvent<'row_comments.notification_mode_updated'>): Promise<void> {
    const { userId, tableId, rowId, mode, includeOrigin } = event.payload;
    const message = encode({ type: 'row_comments_notification_mode_updated', table_id: tableId, row_id: rowId, mode });
    await this.broadcaster.send({ kind: 'users', userIds: [userId], message, exclude: includeOrigin ? null : event.actor.webSocketId });
  }

  private async toTable(type: string, event: CommentEvent): Promise<void> {
    const { tableId, comment } = event.payload;
    await this.broadcaster.send({ kind: 'page', group: tablePageGroup(tableId), message: encode({ type, row_comment: comment }), exclude: event.actor.webSocketId });
  }
}
