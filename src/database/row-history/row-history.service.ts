import { Inject, Injectable, Logger } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { OnEvent } from '@nestjs/event-emitter';
import { Cron, CronExpression } from '@nestjs/schedule';
import { currentActionCommand } from '../../actions/action-log';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { toApiDateTime } from '../../core/database/columns';
import { limitOffsetLinks } from '../../core/http/pagination';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { DomainEvent, RowSnapshot } from '../../core/events/domain-events';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import { FieldTypeRegistry } from '../fields/field-type';
import { isoMicros, RowRepository } from '../rows/row.repository';
import { TableContext, TableContextService } from '../table-context';
import { RowChange, rowHistoryDrafts } from './row-history.entries';
import { RowHistoryRecord, RowHistoryRepository } from './row-history.repository';

/** An entry as the API answers it (Baserow's RowHistorySerializer). */
export interface RowHistoryJson extends Record<string, unknown> {
  id: number;
  action_type: string;
  action_command_type: string;
  user: { id: number | null; name: string };
  timestamp: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  fields_metadata: Record<string, unknown>;
}

export interface RowHistoryPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: RowHistoryJson[];
}

/** Baserow's row history page size: the default and the most one page holds. */
export const ROW_HISTORY_PAGE_LIMIT = 200;

/**
 * Row history (§9.1): what row writes record, inside their unit of work, from the rows they
 * already read; the newest-first listing; and the retention purge.
 */
@Injectable()
export class RowHistoryService {
  private readonly logger = new Logger(RowHistoryService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly history: RowHistoryRepository,
    private readonly types: FieldTypeRegistry,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Records a row change made by `user` (one INSERT for a batch) and the `row_history.created`
   * event its messages come from. Must run inside the write's unit of work.
   */
  async record(user: Pick<UserEntity, 'id' | 'firstName'>, context: TableContext, change: RowChange): Promise<void> {
    const drafts = rowHistoryDrafts(change, context, this.types);
    if (!drafts.length) return;
    const now = new Date();
    const actionTimestamp = isoMicros(now);
    // Written by an undo or redo: UNDO / REDO, as Baserow's entries carry the action's command type.
    const commandType = currentActionCommand();
    const ids = await this.history.insert(drafts, { userId: user.id, userName: user.firstName, actionTimestamp, commandType });
    // One user and one time for the whole write: built once, not per entry (a batch has 200).
    const author = { id: user.id, name: user.firstName };
    const timestamp = toApiDateTime(now);
    this.db.record('row_history.created', {
      entries: drafts.map((draft, i) => ({
        tableId: draft.tableId,
        rowId: draft.rowId,
        entry: {
          id: ids[i],
          action_type: draft.actionType,
          action_command_type: commandType,
          user: author,
          timestamp,
          before: draft.before,
          after: draft.after,
          fields_metadata: draft.fieldsMetadata,
        },
      })),
    });
  }

  /** For the trash: a restored row gets a `restore_from_trash` entry (and its linked rows theirs). */
  async recordRestore(user: Pick<UserEntity, 'id' | 'firstName'>, context: TableContext, rows: RowSnapshot[]): Promise<void> {
    await this.db.run(() => this.record(user, context, { action: 'restore_from_trash', rows }));
  }

  /** A row's history, newest first, limit/offset (DRF's LimitOffsetPagination). */
  async list(user: UserEntity, tableId: number, rowId: number, query: { limit?: number; offset?: number }, url: URL): Promise<RowHistoryPage> {
    await this.contexts.require(tableId, user.id, T.readRowHistory);
    const [row] = await this.rows.findByIds(tableId, [rowId]);
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    const limit = Math.min(query.limit ?? ROW_HISTORY_PAGE_LIMIT, ROW_HISTORY_PAGE_LIMIT);
    const offset = query.offset ?? 0;
    const { count, entries } = await this.history.page(tableId, rowId, limit, offset);
    return { count, ...limitOffsetLinks(url, limit, offset, count), results: entries.map(serialize) };
  }

  /** A user deleted for good stays in history by name only, as Baserow keeps them. */
  @OnEvent('user.permanently_deleted')
  async forgetUser(event: DomainEvent<'user.permanently_deleted'>): Promise<void> {
    await this.db.run(() => this.history.forgetUser(event.payload.userId));
  }

  /** Every hour: entries older than ROW_HISTORY_RETENTION_DAYS are deleted. */
  @Cron(CronExpression.EVERY_HOUR)
  async purgeExpired(now = new Date()): Promise<void> {
    const cutoff = new Date(now.getTime() - this.config.rowHistoryRetentionDays * 24 * 3600 * 1000);
    await this.db.run(() => this.history.deleteBefore(isoMicros(cutoff)));
    this.logger.debug(`Purged row history before ${cutoff.toISOString()}.`);
  }
}

function serialize(entry: Omit<RowHistoryRecord, 'tableId' | 'rowId'>): RowHistoryJson {
  return {
    id: entry.id,
    action_type: entry.actionType,
    action_command_type: entry.actionCommandType,
    user: { id: entry.userId, name: entry.userName },
    timestamp: toApiDateTime(new Date(entry.actionTimestamp)),
    before: entry.before,
    after: entry.after,
    fields_metadata: entry.fieldsMetadata,
  };
}
