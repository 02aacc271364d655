import { Injectable } from '@nestjs/common';
import { ApiError } from '../../core/errors/api-error';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import type { TableContext } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import type { ViewEntity } from '../view.entity';
import { specDefaults, ViewType } from '../view-type';
import { FIELD_REFERENCE, referencedFields, referencedId, remapFieldReferences, storableId, unknownPk } from './field-reference';
import { FILE_FIELD_TYPES, firstThreeVisible } from './gallery.view-type';

const FIELD_OPTIONS = {
  hidden: { kind: 'bool', required: false, default: true },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
} as const;

/**
 * `kanban` (premium in Baserow, ordinary here): rows in columns by a single select field;
 * per field a visibility (hidden by default) and an order.
 */
@Injectable()
export class KanbanViewType implements ViewType {
  readonly type = 'kanban';
  readonly properties = { single_select_field: FIELD_REFERENCE, card_cover_image_field: FIELD_REFERENCE } as const;
  readonly canShare = true;
  readonly canFilter = true;
  readonly canSort = true;
  readonly canGroupBy = false;
  readonly canDecorate = true;
  readonly fieldOptions = FIELD_OPTIONS;

  constructor(
    private readonly fields: FieldRepository,
    private readonly tables: TableRepository,
  ) {}

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }

  /**
   * Baserow looks `single_select_field` up among single select fields (`Invalid pk` otherwise)
   * and refuses one of another table; `card_cover_image_field` among file fields. A field of
   * a workspace the user is not in is answered as missing.
   */
  async prepareProperties(values: Record<string, unknown>, _view: unknown, context: TableContext, userId: number): Promise<void> {
    for (const key of ['single_select_field', 'card_cover_image_field']) {
      if (!(key in values)) continue;
      const raw = values[key];
      const id = referencedId(key, raw);
      values[key] = id;
      if (id === null) continue;
      const types = key === 'single_select_field' ? ['single_select'] : FILE_FIELD_TYPES;
      const own = context.byId.get(id);
      if (own) {
        if (!types.includes(own.type)) throw unknownPk(key, raw);
        continue;
      }
      const found = storableId(id) ? await this.fields.findWithTable(id) : null;
      const access = found && types.includes(found.field.type) ? await this.tables.findAccess(found.table.id, userId) : null;
      if (!found || !access?.isMember) throw unknownPk(key, raw);
      if (key === 'single_select_field') {
        throw new ApiError('ERROR_KANBAN_VIEW_FIELD_DOES_NOT_BELONG_TO_SAME_TABLE', 400, 'The provided single select field does not belong to the same table.');
      }
      throw new ApiError('ERROR_FIELD_NOT_IN_TABLE', 400, 'The provided field does not belong in the related table.');
    }
  }

  remapFields(properties: Record<string, unknown>, _options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void {
    remapFieldReferences(properties, Object.keys(this.properties), fieldIds);
  }

  createdFieldOptions(context: TableContext): Map<number, Record<string, unknown>> {
    return firstThreeVisible(context);
  }

  /** Its columns need the single select's values and its cards the cover image, hidden or not. */
  neededFields(view: ViewEntity): number[] {
    return referencedFields(view.properties, ['single_select_field', 'card_cover_image_field']);
  }

  /** A trashed or converted single select (or file) field is no longer the view's. */
  fieldChanged(view: ViewEntity, field: FieldEntity, removed: boolean): Record<string, unknown> | null {
    const changes: Record<string, unknown> = {};
    if (view.properties.single_select_field === field.id && (removed || field.type !== 'single_select')) changes.single_select_field = null;
    if (view.properties.card_cover_image_field === field.id && (removed || !FILE_FIELD_TYPES.includes(field.type))) changes.card_cover_image_field = null;
    return Object.keys(changes).length ? changes : null;
  }
}
