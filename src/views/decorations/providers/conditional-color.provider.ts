import { Injectable } from '@nestjs/common';
import { ErrorTree, validationError } from '../../../core/errors/api-error';
import { checkObject, FieldSpec, pythonTypeName } from '../../../core/validation/field';
import { DatabaseErrors } from '../../../database/database.errors';
import type { FieldEntity } from '../../../database/fields/field.entity';
import { ConfContext, DecorationConf, DecoratorValueProviderType, IdMapping } from '../decorator-type';

type Json = Record<string, unknown>;
interface Condition extends Json {
  id: string;
  field: number | null;
  type: string | null;
  value: string;
  group?: string | null;
}
interface Color extends Json {
  id: string;
  color: string;
  filters: Condition[];
  filter_groups?: Json[];
  operator: string;
}

const OPERATORS = ['AND', 'OR'];
const GROUP_SPECS: Record<string, FieldSpec> = {
  id: { kind: 'string' },
  filter_type: { kind: 'choice', choices: OPERATORS, required: false, default: 'AND' },
  parent_group: { kind: 'string', nullable: true, required: false },
};
const COLOR_SPECS: Record<string, FieldSpec> = {
  id: { kind: 'string' },
  color: { kind: 'string' },
  operator: { kind: 'choice', choices: OPERATORS, required: false, default: 'AND' },
};

/** Filter types whose value names select options: how their value is mapped in a duplicated table. */
const OPTION_VALUE_FILTERS = new Set(['single_select_equal', 'single_select_not_equal', 'single_select_is_any_of', 'single_select_is_none_of', 'multiple_select_has', 'multiple_select_has_not']);

const nonField = (error: string, code: string): ErrorTree => ({ non_field_errors: [{ error, code }] });
const notADict = (value: unknown): ErrorTree => nonField(`Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, 'invalid');
const isDict = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** DRF's `many=True` nested serializer: a list of objects, each checked by `item`; errors keyed by index. */
function checkMany<T>(value: unknown, item: (v: Json) => { value?: T; errors?: ErrorTree }): { values: T[]; errors: ErrorTree | null } {
  if (!Array.isArray(value)) return { values: [], errors: nonField(`Expected a list of items but got type "${pythonTypeName(value)}".`, 'not_a_list') };
  const errors: ErrorTree = {};
  const values: T[] = [];
  value.forEach((entry, index) => {
    if (!isDict(entry)) {
      errors[String(index)] = notADict(entry);
      return;
    }
    const checked = item(entry);
    if (checked.errors) errors[String(index)] = checked.errors;
    else values.push(checked.value as T);
  });
  return { values, errors: Object.keys(errors).length ? errors : null };
}

/**
 * `conditional_color`: each row takes the colour of the first entry whose conditions (filters
 * of the filter type registry, in optional nested groups) it matches.
 * Conf `{"colors": [{"id","color","operator","filters":[{"id","field","type","value","group"}],"filter_groups":[{"id","filter_type","parent_group"}]}]}`.
 */
@Injectable()
export class ConditionalColorValueProviderType implements DecoratorValueProviderType {
  readonly type = 'conditional_color';
  readonly compatibleDecoratorTypes = ['left_border_color', 'background_color'];

  async validate(conf: unknown, ctx: ConfContext): Promise<DecorationConf> {
    const source = conf as Json;
    if (source.colors === undefined) throw validationError({ value_provider_conf: { colors: [{ error: 'This field is required.', code: 'required' }] } });
    if (source.colors === null) throw validationError({ value_provider_conf: { colors: [{ error: 'This field may not be null.', code: 'null' }] } });
    const filterTypes = ctx.filterTypes();
    const colors = checkMany<Color>(source.colors, (entry) => this.checkColor(entry, filterTypes));
    if (colors.errors) throw validationError({ value_provider_conf: { colors: colors.errors } });
    for (const [c, color] of colors.values.entries()) {
      for (const [f, condition] of color.filters.entries()) {
        if (condition.field === null) continue;
        const field = await ctx.field(condition.field, ['value_provider_conf', 'colors', String(c), 'filters', String(f), 'field']);
        if (condition.type !== null && !ctx.filterCompatible(condition.type, field)) throw DatabaseErrors.filterTypeUnsupportedField(condition.type, field.type);
      }
    }
    return { colors: colors.values };
  }

  private checkColor(entry: Json, filterTypes: string[]): { value?: Color; errors?: ErrorTree } {
    const { values, errors } = checkObject(COLOR_SPECS, entry);
    const tree: ErrorTree = { ...errors };
    let filters: Condition[] = [];
    if (entry.filters === undefined) tree.filters = [{ error: 'This field is required.', code: 'required' }];
    else if (entry.filters === null) tree.filters = [{ error: 'This field may not be null.', code: 'null' }];
    else {
      const checked = checkMany<Condition>(entry.filters, (f) => this.checkCondition(f, filterTypes));
      if (checked.errors) tree.filters = checked.errors;
      filters = checked.values;
    }
    let groups: Json[] | undefined;
    if (entry.filter_groups !== undefined) {
      if (entry.filter_groups === null) tree.filter_groups = [{ error: 'This field may not be null.', code: 'null' }];
      else {
        const checked = checkMany<Json>(entry.filter_groups, (g) => {
          const group = checkObject(GROUP_SPECS, g);
          return Object.keys(group.errors).length ? { errors: group.errors } : { value: group.values };
        });
        if (checked.errors) tree.filter_groups = checked.errors;
        groups = checked.values;
      }
    }
    if (Object.keys(tree).length) return { errors: tree };
    // The serializer's own check: groups name earlier groups as parents, filters name existing groups.
    const groupIds = new Set<string | null>([null]);
    for (const group of groups ?? []) {
      groupIds.add(group.id as string);
      if (!groupIds.has((group.parent_group as string | null | undefined) ?? null)) return { errors: nonField('Filter group references a non-existent parent group.', 'invalid') };
    }
    for (const filter of filters) {
      if (filter.group !== undefined && filter.group !== null && !groupIds.has(filter.group)) return { errors: nonField('Filter references a non-existent group.', 'invalid') };
    }
    const color = { id: values.id, color: values.color, filters, ...(groups ? { filter_groups: groups } : {}), operator: values.operator } as Color;
    return { value: color };
  }

  private checkCondition(entry: Json, filterTypes: string[]): { value?: Condition; errors?: ErrorTree } {
    const specs: Record<string, FieldSpec> = {
      id: { kind: 'string' },
      field: { kind: 'int', nullable: true },
      type: { kind: 'choice', choices: filterTypes, nullable: true },
      value: { kind: 'string', allowBlank: true, required: false, default: '' },
      group: { kind: 'string', nullable: true, required: false },
    };
    const { values, errors } = checkObject(specs, entry);
    if (Object.keys(errors).length) return { errors };
    return { value: values as Condition };
  }

  mapIds(conf: DecorationConf, ids: IdMapping): DecorationConf {
    const colors = ((conf.colors as Color[] | undefined) ?? []).map((color) => {
      const filters: Condition[] = [];
      for (const filter of color.filters ?? []) {
        const field = filter.field === null ? null : ids.fields.get(filter.field);
        if (field === undefined) continue;
        filters.push({ ...filter, field, value: OPTION_VALUE_FILTERS.has(filter.type ?? '') ? mapOptionIds(filter.value, ids.selectOptions) : filter.value });
      }
      return { ...structuredClone(color), filters };
    });
    return { ...conf, colors };
  }

  afterFieldDeleted(conf: DecorationConf, fieldId: number): DecorationConf | null {
    return pruneConditions(conf, (filter) => filter.field !== fieldId);
  }

  afterFieldChanged(conf: DecorationConf, field: FieldEntity, filterCompatible: (type: string, field: FieldEntity) => boolean): DecorationConf | null {
    return pruneConditions(conf, (filter) => filter.field !== field.id || filter.type === null || filterCompatible(filter.type, field));
  }
}

/** Keeps the conditions that pass; a colour's groups no remaining condition names go too. Null when nothing was removed. */
function pruneConditions(conf: DecorationConf, keep: (filter: Condition) => boolean): DecorationConf | null {
  const copy = structuredClone(conf) as { colors?: Color[] };
  let modified = false;
  for (const color of copy.colors ?? []) {
    const kept = (color.filters ?? []).filter(keep);
    if (kept.length !== (color.filters ?? []).length) modified = true;
    color.filters = kept;
    if (color.filter_groups?.length) {
      const used = new Set(kept.map((f) => f.group).filter((g) => g));
      color.filter_groups = color.filter_groups.filter((g) => used.has(g.id as string));
    }
  }
  return modified ? (copy as DecorationConf) : null;
}

/** `"3"` or `"3,4"` with each option id replaced by its copy's (unknown ones kept). */
function mapOptionIds(value: string, options: Map<number, number>): string {
  return value
    .split(',')
    .map((part) => {
      const id = /^\s*\d+\s*$/.test(part) ? options.get(Number(part)) : undefined;
      return id === undefined ? part : String(id);
    })
    .join(',');
}

