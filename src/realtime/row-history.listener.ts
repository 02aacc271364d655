import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { Broadcaster } from './broadcaster';
import { encode } from './delivery';

/**
 * `row_history_updated` (§4.8): one message per new entry to its row's page
 * (`table-<t>-row-<r>`), to every subscriber, the originating socket included, as Baserow.
 */
@Injectable()
export class RowHistoryListener {
  constructor(private readonly broadcaster: Broadcaster) {}

  @OnEvent('row_history.created')
  async historyCreated(event: DomainEvent<'row_history.created'>): Promise<void> {
    await this.broadcaster.send(
      ...event.payload.entries.map(({ tableId, rowId, entry }) => ({
        kind: 'page' as const,
        group: `table-${tableId}-row-${rowId}`,
        message: encode({ type: 'row_history_updated', row_history_entry: entry, table_id: tableId, row_id: rowId }),
        exclude: null,
      })),
    );
  }
}
