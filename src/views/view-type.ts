import { TypeRegistry } from '../core/registry/type-registry';
import { Injectable } from '@nestjs/common';
import type { FieldSpec } from '../core/validation/field';
import type { FieldEntity } from '../database/fields/field.entity';
import type { TableContext } from '../database/table-context';
import type { ViewEntity } from './view.entity';

/**
 * One view type (Baserow's view type registry): its own settings, what it can do, and the
 * options it keeps per field. One implementation per file in `types/`; a module adds a type
 * by registering it.
 */
export interface ViewType {
  readonly type: string;
  /** The type's own settings with validation and defaults, in the order the API answers them. */
  readonly properties: Readonly<Record<string, FieldSpec>>;
  /** Shareable by a public slug: adds `public` and `slug` to the view JSON (after the type keys). */
  readonly canShare: boolean;
  readonly canFilter: boolean;
  /**
   * A shared page of this type may look up any row of a link field's table (a form's visitor
   * picks rows to link), not only the rows its own rows link to (Baserow's
   * `restrict_link_row_public_view_sharing` false).
   */
  readonly linksAnyRowPublicly?: boolean;
  readonly canSort: boolean;
  readonly canGroupBy: boolean;
  readonly canDecorate: boolean;
  /** The options kept per field (validation and defaults, in answer order); null when the type has none. */
  readonly fieldOptions: Readonly<Record<string, FieldSpec>> | null;
  /** The options of a field that has no stored options yet (defaults, or type-specific starting values). */
  defaultFieldOptions(field: FieldEntity): Record<string, unknown>;
  /**
   * Checks the type's settings (already through `properties`) against the table and the
   * workspace, throwing Baserow's error; may rewrite them (e.g. `receive_notification_on_submit`).
   */
  prepareProperties?(values: Record<string, unknown>, view: { properties: Record<string, unknown> }, context: TableContext, userId: number): Promise<void> | void;
  /** The type's settings as one user sees them (e.g. the form's per-user notification flag). */
  serializeProperties?(values: Record<string, unknown>, userId: number | null, view?: ViewEntity): Record<string, unknown>;
  /**
   * Columns of the view itself that its settings decide, on create (`view` null) and update
   * (a calendar's iCal slug is made when its feed is first made public).
   */
  entityChanges?(values: Record<string, unknown>, view: ViewEntity | null): Partial<ViewEntity>;
  /**
   * Fields the view shows even when their options hide them, because it needs their values
   * (a kanban's single select field, a card cover image field).
   */
  neededFields?(view: ViewEntity): number[];
  /** Options stored when the view is created (gallery and kanban show their first three fields). */
  createdFieldOptions?(context: TableContext): Map<number, Record<string, unknown>>;
  /** Table duplication: the settings and field options of the copy, their field ids mapped to the copy's (unmapped: null or left out). */
  remapFields?(properties: Record<string, unknown>, options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void;
  /** A field of the view's table was trashed (`removed`) or changed: the settings to change, or null. */
  fieldChanged?(view: ViewEntity, field: FieldEntity, removed: boolean): Record<string, unknown> | null;
  /**
   * Checks and completes field options changes against the table (grid: the aggregation must
   * apply to the field; form: conditions, fields a form cannot hold), given the options stored
   * so far; throws Baserow's error.
   */
  prepareFieldOptions?(changes: Map<number, Record<string, unknown>>, stored: Map<number, Record<string, unknown>>, context: TableContext): void;
}

@Injectable()
export class ViewTypeRegistry extends TypeRegistry<ViewType> {
  protected readonly kind = 'View type';

  /** The type of a stored view; a view whose type is not registered is a programming error. */
  of(view: { type: string }): ViewType {
    return this.require(view.type);
  }
}

/** The defaults of a spec map, in its order. */
export function specDefaults(specs: Readonly<Record<string, FieldSpec>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) values[key] = spec.default === undefined ? null : structuredClone(spec.default);
  return values;
}
