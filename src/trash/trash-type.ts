import { TypeRegistry } from '../core/registry/type-registry';
import type { OperationType } from '../permissions';
import { Injectable } from '@nestjs/common';
import type { UserEntity } from '../users/user.entity';
import type { TrashEntryEntity } from './trash-entry.entity';

/**
 * One kind of trashable item (Baserow's trashable item type registry). A module registers
 * its types with TrashTypeRegistry when it starts; the type knows how its item is looked up,
 * restored (with the message the restore sends) and deleted for good. Trashing itself is done
 * by the module's own delete, which records the entry through TrashService.
 */
export interface TrashType {
  readonly type: string;
  /** Rows are unique only within their table: their entries name the table as parent. */
  readonly requiresParentId: boolean;
  /** The operation a restore of it is checked as (Baserow's restore operation types). */
  readonly restoreOperation: OperationType;
  /** The table the item is or lives in (the scope a table role decides its restore on); null above tables. */
  tableOf(entry: TrashEntryEntity): Promise<number | null>;
  /**
   * The same in SQL, for the trash's listing: a condition on the entry `e` that holds when its
   * item is or lives in one of the tables `:...hiddenTables` (null above tables).
   */
  readonly inTablesSql: string | null;
  /** Whether the entry's item still exists (trashed). */
  exists(entry: TrashEntryEntity): Promise<boolean>;
  /** Whether something the item lives in (a table, a database, a workspace) is trashed. */
  hasTrashedParent(entry: TrashEntryEntity): Promise<boolean>;
  /** Brings the item (and what was trashed with it) back for `user`; records its restore message. Runs in the restore's unit of work. */
  restore(entry: TrashEntryEntity, user: UserEntity): Promise<void>;
  /** Deletes the item for good (its SQL storage included); nothing when it is gone already. */
  permanentlyDelete(entry: TrashEntryEntity): Promise<void>;
}

@Injectable()
export class TrashTypeRegistry extends TypeRegistry<TrashType> {}
