import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../core/database/columns';

/**
 * A user mentioned (`@<user id>`) in a rich-text long text cell (Baserow's RichTextFieldMention):
 * only a mention not yet recorded notifies. One removed from the cell is marked, not deleted at
 * once, so that putting it back soon (an undo) notifies nobody twice.
 */
@Entity('database_richtextfieldmention')
export class RichTextFieldMentionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'table_id', type: 'integer' })
  tableId: number;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @Column({ name: 'row_id', type: 'integer' })
  rowId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @DateTimeColumn({ name: 'marked_for_deletion_at', nullable: true })
  markedForDeletionAt: Date | null;
}
