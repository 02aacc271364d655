import { Injectable } from '@nestjs/common';
import { ApiError, validationError } from '../../core/errors/api-error';
import type { FieldError } from '../../core/errors/api-error';
import { pythonTypeName } from '../../core/validation/field';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldTypeRegistry } from '../../database/fields/field-type';
import { FilterCompiler } from '../../database/filters/filter-tree';
import type { TableContext } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import { specDefaults, ViewType } from '../view-type';
import { referencedId, storableId, unknownPk } from './field-reference';

/** A condition of a form field: shown when the value of an (earlier) field matches. */
export interface FormCondition {
  id: number;
  field: number;
  type: string;
  value: string;
  group: number | null;
}

/** A group of conditions (nested through `parent_group`) with its own AND/OR. */
export interface FormConditionGroup {
  id: number;
  filter_type: 'AND' | 'OR';
  parent_group: number | null;
}

const FIELD_OPTIONS = {
  name: { kind: 'string', max: 255, allowBlank: true, required: false, default: '' },
  description: { kind: 'string', allowBlank: true, required: false, default: '' },
  enabled: { kind: 'bool', required: false, default: false },
  required: { kind: 'bool', required: false, default: true },
  show_when_matching_conditions: { kind: 'bool', required: false, default: false },
  condition_type: { kind: 'choice', choices: ['AND', 'OR'], required: false, default: 'AND' },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
  conditions: { kind: 'list', of: { kind: 'object' }, required: false, default: [] },
  condition_groups: { kind: 'list', of: { kind: 'object' }, required: false, default: [] },
  field_component: { kind: 'string', max: 32, required: false, default: 'default' },
  include_all_select_options: { kind: 'bool', required: false, default: true },
  allowed_select_options: { kind: 'list', of: { kind: 'int' }, required: false, default: [] },
} as const;

const URL_PATTERN = /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?(?:\.(?!-)[a-z0-9\u00a1-\uffff-]{1,63})*\.?|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|localhost)(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;
const urlCheck = (value: string): FieldError | null => (value === '' || URL_PATTERN.test(value) ? null : { error: 'Enter a valid URL.', code: 'invalid' });

/** The field options error of Baserow's `FieldOptionsField` (one for any bad option). */
export const invalidFieldOptions = (): Error => validationError({ field_options: [{ error: 'Must be valid field options.', code: 'invalid_value' }] });

const groupDoesNotExist = () =>
  new ApiError('ERROR_FORM_VIEW_FIELD_OPTIONS_CONDITION_GROUP_DOES_NOT_EXIST', 400, 'The provided form view field options condition group does not exists.');

/** An integer of a condition or group (DRF's `IntegerField`), or undefined when it is none. */
function intOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * `form`: a form that creates rows. Settings of the form page and of what follows a
 * submission; per field whether it is in the form, required, its label and conditions.
 * No filters, sorts or decorations; shareable by its slug.
 */
@Injectable()
export class FormViewType implements ViewType {
  readonly type = 'form';
  readonly properties = {
    title: { kind: 'string', allowBlank: true, required: false, default: '' },
    description: { kind: 'string', allowBlank: true, required: false, default: '' },
    mode: { kind: 'choice', choices: ['form', 'survey'], required: false, default: 'form' },
    cover_image: { kind: 'any', nullable: true, required: false, default: null },
    logo_image: { kind: 'any', nullable: true, required: false, default: null },
    submit_text: { kind: 'string', allowBlank: true, required: false, default: 'Submit' },
    submit_action: { kind: 'choice', choices: ['MESSAGE', 'REDIRECT'], required: false, default: 'MESSAGE' },
    submit_action_message: { kind: 'string', allowBlank: true, required: false, default: '' },
    submit_action_redirect_url: { kind: 'string', allowBlank: true, max: 2000, required: false, default: '', check: urlCheck },
    receive_notification_on_submit: { kind: 'any', nullable: true, required: false },
    users_to_notify_on_submit: { kind: 'any', required: false, default: [] },
  } as const;
  readonly canShare = true;
  readonly canFilter = false;
  /** A visitor picks any row of a link field's table to link (the view shows no rows). */
  readonly linksAnyRowPublicly = true;
  readonly canSort = false;
  readonly canGroupBy = false;
  readonly canDecorate = false;
  readonly fieldOptions = FIELD_OPTIONS;

  constructor(
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly compiler: FilterCompiler,
    private readonly tables: TableRepository,
  ) {}

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }

  /** Whether a field can be in a form (Baserow: not read only, and its type `can_be_in_form_view`). */
  canBeInForm(field: FieldEntity): boolean {
    return !this.fieldTypes.of(field).readOnly;
  }

  /**
   * User files do not exist yet: an image is null, or Baserow's error for a name that is no
   * user file. `receive_notification_on_submit` adds or removes the current user from
   * `users_to_notify_on_submit` (members of the workspace only).
   */
  async prepareProperties(values: Record<string, unknown>, view: { properties: Record<string, unknown> }, context: TableContext, userId: number): Promise<void> {
    for (const key of ['cover_image', 'logo_image']) {
      const value = values[key];
      if (value === null || value === undefined) continue;
      if (typeof value !== 'object' || Array.isArray(value) || typeof (value as Record<string, unknown>).name !== 'string') {
        throw validationError({ [key]: [{ error: 'The value must be an object containing the file name.', code: 'invalid_value' }] });
      }
      throw validationError({ [key]: [{ error: 'The provided user file does not exist.', code: 'invalid_user_file' }] });
    }
    if ('users_to_notify_on_submit' in values) {
      const given = values.users_to_notify_on_submit;
      if (!Array.isArray(given)) {
        throw validationError({ users_to_notify_on_submit: [{ error: `Expected a list of items but got type "${pythonTypeName(given)}".`, code: 'not_a_list' }] });
      }
      const ids: number[] = [];
      for (const item of given) {
        const id = referencedId('users_to_notify_on_submit', item);
        if (id === null || !storableId(id) || !(await this.tables.findAccess(context.table.id, id))?.isMember) throw unknownPk('users_to_notify_on_submit', item);
        if (!ids.includes(id)) ids.push(id);
      }
      values.users_to_notify_on_submit = ids;
    }
    if ('receive_notification_on_submit' in values) {
      const notify = values.receive_notification_on_submit;
      delete values.receive_notification_on_submit;
      if (notify !== null && typeof notify !== 'boolean') {
        throw validationError({
          non_field_errors: [{ error: 'The value must be a boolean indicating if the current user should be notified on submit or not.', code: 'invalid' }],
        });
      }
      if (notify !== null) {
        const current = (values.users_to_notify_on_submit ?? view.properties.users_to_notify_on_submit ?? []) as number[];
        values.users_to_notify_on_submit = [...current.filter((id) => id !== userId), ...(notify ? [userId] : [])];
      }
    }
  }

  /** `receive_notification_on_submit` for the user who reads the view; the list itself is never answered. */
  serializeProperties(values: Record<string, unknown>, userId: number | null): Record<string, unknown> {
    const { users_to_notify_on_submit: users, ...rest } = values;
    rest.receive_notification_on_submit = userId !== null && ((users as number[] | null) ?? []).includes(userId);
    return rest;
  }

  /** Conditions of the copy name the copy's fields (those on fields not copied go). */
  remapFields(_properties: Record<string, unknown>, options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void {
    for (const option of options) {
      const conditions = (option.conditions as FormCondition[] | undefined) ?? [];
      option.conditions = conditions.filter((c) => fieldIds.has(c.field)).map((c) => ({ ...c, field: fieldIds.get(c.field)! }));
    }
  }

  /**
   * Baserow's checks: a field enabled in the form must not be read only; conditions name
   * fields of the table with a compatible filter type, and groups given parent first; new
   * conditions and groups get ids, existing ones (of that field) keep theirs; groups left
   * without conditions or subgroups are removed; `allowed_select_options` keeps the field's options.
   */
  prepareFieldOptions(changes: Map<number, Record<string, unknown>>, stored: Map<number, Record<string, unknown>>, context: TableContext): void {
    let nextId = 1;
    for (const options of stored.values()) {
      for (const item of [...((options.conditions as FormCondition[]) ?? []), ...((options.condition_groups as FormConditionGroup[]) ?? [])]) nextId = Math.max(nextId, item.id + 1);
    }
    for (const [fieldId, change] of changes) {
      const field = context.byId.get(fieldId)!;
      if (change.enabled === true && !this.canBeInForm(field)) {
        throw new ApiError('ERROR_FORM_VIEW_READ_ONLY_FIELD_IS_NOT_SUPPORTED', 400, `The ${field.name} field is read only and not compatible with the form view.`);
      }
      const previous = stored.get(fieldId) ?? {};
      const groupIds = new Map<number, number>();
      if (change.condition_groups !== undefined) {
        const existing = new Set(((previous.condition_groups as FormConditionGroup[]) ?? []).map((g) => g.id));
        const seen = new Set<number | null>([null]);
        const groups: FormConditionGroup[] = [];
        for (const raw of change.condition_groups as Record<string, unknown>[]) {
          const id = intOf(raw.id);
          const filterType = raw.filter_type ?? 'AND';
          const parent = raw.parent_group === undefined || raw.parent_group === null ? null : intOf(raw.parent_group);
          if (id === undefined || (filterType !== 'AND' && filterType !== 'OR') || parent === undefined) throw invalidFieldOptions();
          if (!seen.has(parent)) throw invalidFieldOptions();
          seen.add(id);
          if (parent !== null && !groupIds.has(parent) && !existing.has(parent)) throw groupDoesNotExist();
          const newId = existing.has(id) ? id : nextId++;
          groupIds.set(id, newId);
          groups.push({ id: newId, filter_type: filterType, parent_group: parent === null ? null : (groupIds.get(parent) ?? parent) });
        }
        change.condition_groups = groups;
      }
      if (change.conditions !== undefined) {
        const existing = new Set(((previous.conditions as FormCondition[]) ?? []).map((c) => c.id));
        const knownGroups = new Set(((change.condition_groups ?? previous.condition_groups ?? []) as FormConditionGroup[]).map((g) => g.id));
        const conditions: FormCondition[] = [];
        for (const raw of change.conditions as Record<string, unknown>[]) {
          const id = intOf(raw.id);
          const conditionField = intOf(raw.field);
          const value = raw.value === undefined ? '' : raw.value;
          const group = raw.group === undefined || raw.group === null ? null : intOf(raw.group);
          if (id === undefined || conditionField === undefined || typeof raw.type !== 'string' || raw.type.length > 48 || typeof value !== 'string' || value.length > 255 || group === undefined) {
            throw invalidFieldOptions();
          }
          if (value.includes('\0')) throw invalidFieldOptions();
          const target = context.byId.get(conditionField);
          if (!target) throw DatabaseErrors.fieldNotInTable();
          this.compiler.requireApplicable(raw.type, target);
          const groupId = group === null ? null : (groupIds.get(group) ?? (knownGroups.has(group) ? group : undefined));
          if (groupId === undefined) throw groupDoesNotExist();
          conditions.push({ id: existing.has(id) ? id : nextId++, field: conditionField, type: raw.type, value, group: groupId });
        }
        change.conditions = conditions;
      }
      if (change.conditions !== undefined || change.condition_groups !== undefined) {
        const conditions = (change.conditions ?? previous.conditions ?? []) as FormCondition[];
        let groups = (change.condition_groups ?? previous.condition_groups ?? []) as FormConditionGroup[];
        // Groups without conditions or subgroups go, innermost first.
        for (let removed = true; removed; ) {
          const kept = groups.filter((g) => conditions.some((c) => c.group === g.id) || groups.some((child) => child.parent_group === g.id));
          removed = kept.length !== groups.length;
          groups = kept;
        }
        change.condition_groups = groups;
        if (change.conditions === undefined) change.conditions = conditions;
      }
      if (change.allowed_select_options !== undefined) {
        const ids = new Set((context.selectOptions.get(fieldId) ?? []).map((o) => o.id));
        change.allowed_select_options = [...new Set(change.allowed_select_options as number[])].filter((id) => ids.has(id));
      }
    }
  }
}
