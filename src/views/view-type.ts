import { TypeRegistry } from '../core/registry/type-registry';
import { Injectable } from '@nestjs/common';
import type { FieldSpec } from '../core/validation/field';
import type { FieldEntity } from '../database/fields/field.entity';

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
  readonly canSort: boolean;
  readonly canGroupBy: boolean;
  readonly canDecorate: boolean;
  /** The options kept per field (validation and defaults, in answer order); null when the type has none. */
  readonly fieldOptions: Readonly<Record<string, FieldSpec>> | null;
  /** The options of a field that has no stored options yet (defaults, or type-specific starting values). */
  defaultFieldOptions(field: FieldEntity): Record<string, unknown>;
  /** Rules of options that depend on the field (grid: the aggregation must apply to it); throws the API error. */
  checkFieldOptions?(field: FieldEntity, options: Record<string, unknown>): void;
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
