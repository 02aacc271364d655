import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

/**
 * One trashed item (Baserow's `TrashEntry`): what it is, where it lives, who trashed it, and
 * the names the trash shows. The item itself stays where it was, flagged `trashed`.
 */
@Entity('trash_entry')
export class TrashEntryEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'trash_item_type', type: 'varchar', length: 64 })
  trashItemType: string;

  @Column({ name: 'trash_item_id', type: 'integer' })
  trashItemId: number;

  /** The table of a row (rows are only unique within their table); null for other types. */
  @Column({ name: 'parent_trash_item_id', type: 'integer', nullable: true })
  parentTrashItemId: number | null;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'application_id', type: 'integer', nullable: true })
  applicationId: number | null;

  @Column({ name: 'user_who_trashed_id', type: 'integer', nullable: true })
  userWhoTrashedId: number | null;

  /** Only this user sees and restores the item (a row comment's author); null: every member. */
  @Column({ name: 'trash_item_owner_id', type: 'integer', nullable: true })
  trashItemOwnerId: number | null;

  @DateTimeColumn({ name: 'trashed_at' })
  trashedAt: Date;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @JsonColumn({ nullable: true })
  names: string[] | null;

  @Column({ name: 'parent_name', type: 'varchar', length: 255, nullable: true })
  parentName: string | null;

  /** Items trashed with this one that come back with it, by trash type (e.g. link fields of other tables). */
  @JsonColumn({ name: 'related_items' })
  relatedItems: Record<string, number[]>;

  @Column({ name: 'should_be_permanently_deleted', type: 'boolean', default: false })
  shouldBePermanentlyDeleted: boolean;
}

/** The row ids of one batch delete: the item a `rows` entry names. */
@Entity('database_trashedrows')
export class TrashedRowsEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @JsonColumn({ name: 'row_ids' })
  rowIds: number[];
}
