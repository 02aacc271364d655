import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { Broadcaster } from './broadcaster';
import { Delivery, encode } from './delivery';

/**
 * `row_history_updated` (§4.8): one message per new entry to its row's page
 * (`table-<t>-row-<r>`), to every subscriber, the originating socket included, as Baserow.
 */
@Injectable()
export class RowHistoryListener {
  constructor(private readonly broadcaster: Broadcaster) {}

  @OnEvent('row_history.created')
  async historyCreated(event: DomainEvent<'row_history.created'>): Promise<void> {
    const deliveries: Delivery[] = [];
    for (const { tableId, rowId, entry } of event.payload.entries) {
      const group = `table-${tableId}-row-${rowId}`;
      // A batch makes 200 entries, whose rows' pages are seldom open: no message built for nobody.
      if (!this.broadcaster.listened(group)) continue;
      deliveries.push({ kind: 'page', group, message: encode({ type: 'row_history_updated', row_history_entry: entry, table_id: tableId, row_id: rowId }), exclude: null });
    }
    await this.broadcaster.send(...deliveries);
  }
}
