import { Injectable } from '@nestjs/common';
import { TypeRegistry } from '../../core/registry/type-registry';
import type { FieldEntity } from '../../database/fields/field.entity';

/** One decorator type (`left_border_color`, `background_color`): what a client draws. One file per type in `types/`. */
export interface DecoratorType {
  readonly type: string;
}

@Injectable()
export class DecoratorTypeRegistry extends TypeRegistry<DecoratorType> {
  protected readonly kind = 'Decorator type';
}

export type DecorationConf = Record<string, unknown>;

/** What a provider checks a conf against: the fields of the decorated view's table. */
export interface ConfContext {
  /**
   * The live field of the view's table with that id; throws ERROR_FIELD_NOT_IN_TABLE for a
   * field of another table, or the body validation error at `path` when no such field exists.
   */
  field(id: number, path: string[]): Promise<FieldEntity>;
  /** Whether the filter type applies to the field (the filter type registry's rule). */
  filterCompatible(type: string, field: FieldEntity): boolean;
  /** The registered filter type names (the choices of a condition's `type`). */
  filterTypes(): string[];
}

/** Field and select option ids of a duplicated table: old id → new id. */
export interface IdMapping {
  fields: Map<number, number>;
  selectOptions: Map<number, number>;
}

/**
 * One decorator value provider (`single_select_color`, `conditional_color`): the decorator
 * types it feeds, how its conf is validated, and how the conf follows field changes. One file
 * per provider in `providers/`.
 */
export interface DecoratorValueProviderType {
  readonly type: string;
  readonly compatibleDecoratorTypes: readonly string[];
  /** The conf as stored (Baserow's conf serializer: unknown keys dropped, defaults set); throws the API error of a bad conf. */
  validate(conf: unknown, ctx: ConfContext): Promise<DecorationConf>;
  /** The conf of a copy in a duplicated table (ids mapped; fields not copied become null or are dropped). */
  mapIds(conf: DecorationConf, ids: IdMapping): DecorationConf;
  /** The conf once the field is deleted, or null when it does not change. */
  afterFieldDeleted(conf: DecorationConf, fieldId: number): DecorationConf | null;
  /** The conf once the field (now as given) changed type, or null when it does not change. */
  afterFieldChanged(conf: DecorationConf, field: FieldEntity, filterCompatible: (type: string, field: FieldEntity) => boolean): DecorationConf | null;
}

@Injectable()
export class DecoratorValueProviderTypeRegistry extends TypeRegistry<DecoratorValueProviderType> {
  protected readonly kind = 'Decorator value provider type';
}
