import { Injectable } from '@nestjs/common';
import { ApiError } from '../../core/errors/api-error';
import type { FieldEntity } from '../../database/fields/field.entity';
import type { TableContext } from '../../database/table-context';
import type { ViewEntity } from '../view.entity';
import { specDefaults, ViewType } from '../view-type';
import { FIELD_REFERENCE, referencedFields, referencedId, remapFieldReferences, unknownPk } from './field-reference';

const FIELD_OPTIONS = {
  hidden: { kind: 'bool', required: false, default: true },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
} as const;

/** Field types whose cells can hold files (none exist yet: a file field comes with user files). */
export const FILE_FIELD_TYPES: readonly string[] = ['file'];

/** The first three fields (primary first, then by id) are shown, as Baserow's gallery and kanban `view_created` do. */
export function firstThreeVisible(context: TableContext): Map<number, Record<string, unknown>> {
  const ordered = [...context.fields].sort((a, b) => Number(b.primary) - Number(a.primary) || a.id - b.id);
  return new Map(ordered.slice(0, 3).map((field) => [field.id, { hidden: false }]));
}

/**
 * `card_cover_image_field`: a file field of the view's table, or null. Baserow looks the id up
 * among all fields (`Invalid pk` when none) and refuses one that cannot hold files.
 */
export function checkCoverField(values: Record<string, unknown>, context: TableContext): void {
  const key = 'card_cover_image_field';
  if (!(key in values)) return;
  const raw = values[key];
  const id = referencedId(key, raw);
  values[key] = id;
  if (id === null) return;
  const field = context.byId.get(id);
  if (!field) throw unknownPk(key, raw);
  if (!FILE_FIELD_TYPES.includes(field.type)) throw new ApiError('ERROR_INCOMPATIBLE_FIELD', 400, 'The provided field is not compatible.');
}

/** `gallery`: rows as cards; per field a visibility (hidden by default) and an order. */
@Injectable()
export class GalleryViewType implements ViewType {
  readonly type = 'gallery';
  readonly properties = { card_cover_image_field: FIELD_REFERENCE } as const;
  readonly canShare = true;
  readonly canFilter = true;
  readonly canSort = true;
  readonly canGroupBy = false;
  readonly canDecorate = true;
  readonly fieldOptions = FIELD_OPTIONS;

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }

  prepareProperties(values: Record<string, unknown>, _view: unknown, context: TableContext): void {
    checkCoverField(values, context);
  }

  remapFields(properties: Record<string, unknown>, _options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void {
    remapFieldReferences(properties, Object.keys(this.properties), fieldIds);
  }

  createdFieldOptions(context: TableContext): Map<number, Record<string, unknown>> {
    return firstThreeVisible(context);
  }

  /** Its cards need the cover image, hidden or not. */
  neededFields(view: ViewEntity): number[] {
    return referencedFields(view.properties, ['card_cover_image_field']);
  }

  fieldChanged(view: ViewEntity, field: FieldEntity, removed: boolean): Record<string, unknown> | null {
    if (view.properties.card_cover_image_field !== field.id) return null;
    return removed || !FILE_FIELD_TYPES.includes(field.type) ? { card_cover_image_field: null } : null;
  }
}
