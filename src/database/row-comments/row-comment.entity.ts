import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../../core/database/columns';

/** A ProseMirror JSON document (Baserow's rich-text comment format). */
export type ProseMirrorDoc = Record<string, unknown>;

/**
 * A comment on a row of a user table (Baserow's `database_rowcomment`). Deleting it sets
 * `trashed`: the comment stays listed without its message until the trash forgets it.
 */
@Entity('database_rowcomment')
export class RowCommentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @Column({ name: 'row_id', type: 'integer' })
  rowId: number;

  /** The author; null once their account is deleted permanently (the comment stays). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @JsonColumn()
  message: ProseMirrorDoc;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;

  @Column({ type: 'boolean', default: false })
  trashed: boolean;
}

export const NOTIFICATION_MODES = ['all', 'mentions'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];
/** A user without a stored mode hears only of mentions. */
export const DEFAULT_NOTIFICATION_MODE: NotificationMode = 'mentions';

/** How a user wants to hear of new comments on one row. */
@Entity('database_rowcommentsnotificationmode')
export class RowCommentsNotificationModeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @Column({ name: 'row_id', type: 'integer' })
  rowId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 32 })
  mode: NotificationMode;
}
