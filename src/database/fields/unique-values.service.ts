import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import { RowRepository } from '../rows/row.repository';
import { TableContextService } from '../table-context';
import { FieldsService } from './fields.service';

/**
 * Types whose cells have a text value worth suggesting (Baserow's `can_get_unique_values`):
 * formulas too (their cells as text), not lookups, rollups and counts.
 */
const SUPPORTED = new Set(['text', 'long_text', 'url', 'email', 'phone_number', 'number', 'rating', 'date', 'single_select', 'multiple_select', 'uuid', 'autonumber', 'duration', 'boolean', 'formula']);

/** `unique_row_values`: the distinct texts of a field's cells, most frequent first. */
@Injectable()
export class UniqueValuesService {
  constructor(
    private readonly fields: FieldsService,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
  ) {}

  async values(user: UserEntity, fieldId: number, limit: number, splitCommaSeparated: boolean): Promise<{ values: string[] }> {
    const { field, context } = await this.fields.require(user, fieldId, T.readField);
    if (!SUPPORTED.has(field.type)) throw DatabaseErrors.incompatibleForUniqueValues();
    const type = this.fields.types.of(field);
    const ctx = this.contexts.fieldContext(context, null);
    const counts = new Map<string, number>();
    // Rows in the trash are not the table's (Baserow's manager leaves them out).
    for await (const batch of this.rows.scan(context.table.id, { liveOnly: true })) {
      const values = await type.readValues(field, batch, ctx);
      for (const value of values) {
        const text = type.toText(field, value);
        if (text === null || text === '') continue;
        const parts = splitCommaSeparated ? text.split(',').map((p) => p.trim()).filter((p) => p) : [text];
        for (const part of parts) counts.set(part, (counts.get(part) ?? 0) + 1);
      }
    }
    const values = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([value]) => value);
    return { values };
  }
}
