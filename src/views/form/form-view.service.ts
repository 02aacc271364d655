import type { ReceivedFile } from '../../files/multipart';
import { FieldWriteRules } from '../../permissions/field-write-rules';
import { UserFileJson, UserFilesService } from '../../files/user-files.service';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { Errors, ErrorTree, validationError } from '../../core/errors/api-error';
import { bodyObjectError } from '../../core/validation/field';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldTypeRegistry } from '../../database/fields/field-type';
import { FieldsService } from '../../database/fields/fields.service';
import type { FilterLeaf, FilterTree } from '../../database/filters/filter-tree';
import { RowsService } from '../../database/rows/rows.service';
import type { TableContext } from '../../database/table-context';
import { NotificationsService } from '../../notifications/notifications.service';
import type { UserEntity } from '../../users/user.entity';
import { FormCondition, FormConditionGroup, FormViewType } from '../types/form.view-type';
import type { SlugCaller, ViewAccess } from '../view-access.service';
import { ViewsService } from '../views.service';
import { ViewErrors } from '../views.errors';
import { PermissionService, TableOperations as T } from '../../permissions';
import { tableScope } from '../../database/table-context';
import { isPersonal } from '../view-ownership';

/** The options of one field of a form (§8.1's form field options). */
interface FormFieldOptions {
  name: string;
  description: string;
  enabled: boolean;
  required: boolean;
  show_when_matching_conditions: boolean;
  condition_type: 'AND' | 'OR';
  order: number;
  conditions: FormCondition[];
  condition_groups: FormConditionGroup[];
  field_component: string;
  include_all_select_options: boolean;
  allowed_select_options: number[];
}

interface FormField {
  field: FieldEntity;
  options: FormFieldOptions;
}

export interface SubmittedJson {
  submit_action: string;
  submit_action_message: string;
  submit_action_redirect_url: string;
  row_id: number;
}

/** Keys of the field JSON that a form does not show (the public field is `id`, `name`, `type` and the type's properties). */
const PRIVATE_FIELD_KEYS = ['table_id', 'order', 'primary', 'read_only', 'description', 'db_index', 'field_constraints', 'immutable_properties', 'immutable_type', 'database_id', 'workspace_id'];

/** Baserow's `value_is_empty_for_required_form_field`. */
const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || value === false || (Array.isArray(value) && !value.length) || (typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.keys(value).length);

const required = () => [{ error: 'This field is required.', code: 'required' }];

/** A field value was given for a field whose conditions do not match: submit again without it. */
class IgnoredValue extends Error {
  constructor(readonly fieldId: number) {
    super(`field ${fieldId} is not shown`);
  }
}

/**
 * Forms by their slug: what a visitor is shown (the enabled fields a form can hold, in order,
 * with their conditions) and the submission, which creates the row through the rows service.
 */
@Injectable()
export class FormViewService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly views: ViewsService,
    private readonly rows: RowsService,
    private readonly fields: FieldsService,
    private readonly formType: FormViewType,
    private readonly userFiles: UserFilesService,
    private readonly types: FieldTypeRegistry,
    private readonly notifications: NotificationsService,
    private readonly fieldRules: FieldWriteRules,
    private readonly permissions: PermissionService,
  ) {}

  private require(slug: string, caller: SlugCaller): Promise<ViewAccess> {
    return this.views.requireBySlug(slug, caller, { type: 'form', notFound: ViewErrors.formDoesNotExist, passwordRequired: ViewErrors.noPermissionToPublicForm });
  }

  /**
   * The enabled fields a form can hold, by option order then field id; conditions on trashed
   * fields left out. A field whose permissions do not allow it in forms is not one of them.
   */
  private async formFields(access: ViewAccess): Promise<FormField[]> {
    const { view, context } = access;
    // Read without creating the missing options: a refused submission writes nothing.
    const all = (await this.views.fieldOptions(view, context, false)) as unknown as Record<string, FormFieldOptions>;
    const rules = await this.fieldRules.ofTable(context.table.id);
    return context.fields
      .filter((field) => all[field.id]?.enabled && this.formType.canBeInForm(field) && rules.get(field.id)?.allowInForms !== false)
      .map((field) => {
        const options = all[field.id];
        return { field, options: { ...options, conditions: options.conditions.filter((c) => context.byId.has(c.field)) } };
      })
      .sort((a, b) => a.options.order - b.options.order || a.field.id - b.field.id);
  }

  /** The select options a visitor may choose: all, or the allowed ones in the field's order. */
  private visibleOptions(context: TableContext, form: FormField): TableContext {
    if (form.options.include_all_select_options || !context.selectOptions.has(form.field.id)) return context;
    const allowed = new Set(form.options.allowed_select_options);
    const options = (context.selectOptions.get(form.field.id) ?? []).filter((o) => allowed.has(o.id));
    return { ...context, selectOptions: new Map([...context.selectOptions, [form.field.id, options]]) };
  }

  async meta(caller: SlugCaller, slug: string): Promise<Record<string, unknown>> {
    const access = await this.require(slug, caller);
    const { view, context } = access;
    const props = { ...this.formType.serializeProperties(specValues(this.formType, view.properties), null) };
    const fields = [];
    for (const form of await this.formFields(access)) {
      const json = await this.fields.serialize(form.field, this.visibleOptions(context, form));
      for (const key of PRIVATE_FIELD_KEYS) delete json[key];
      const { options } = form;
      fields.push({
        name: options.name || form.field.name,
        description: options.description,
        required: options.required,
        order: options.order,
        field: json,
        show_when_matching_conditions: options.show_when_matching_conditions,
        condition_type: options.condition_type,
        conditions: options.conditions,
        condition_groups: options.condition_groups,
        groups: options.condition_groups,
        field_component: options.field_component,
      });
    }
    return {
      title: props.title,
      description: props.description,
      mode: props.mode,
      cover_image: props.cover_image,
      logo_image: props.logo_image,
      submit_text: props.submit_text,
      fields,
      show_logo: view.showLogo,
      allow_public_export: view.allowPublicExport,
    };
  }

  /**
   * A file for a file field of the form (Baserow's form `upload-file`): whoever may submit the
   * form may upload, and the body is read only once that is known.
   */
  async uploadFile(user: UserEntity | undefined, token: string | null, slug: string, read: () => Promise<ReceivedFile>): Promise<UserFileJson> {
    await this.require(slug, { userId: user?.id ?? null, token });
    const { name, file, type } = await read();
    return this.userFiles.upload(user ?? null, name, file, type);
  }

  /**
   * Creates a row from the enabled fields' values: required ones must be given and not empty;
   * a field shown only when its conditions match is required (and its value kept) only when
   * they match the submitted row; select values must be allowed options. Other keys are ignored.
   */
  async submit(user: UserEntity | undefined, token: string | null, slug: string, body: unknown): Promise<SubmittedJson> {
    const notAnObject = bodyObjectError(body);
    if (notAnObject) throw validationError(notAnObject);
    const given = (body ?? {}) as Record<string, unknown>;
    const access = await this.require(slug, { userId: user?.id ?? null, token });
    const { view, context } = access;
    // A personal form takes submissions only while its owner may still create rows (Baserow's before_form_view_submitted).
    if (isPersonal(view) && (view.ownedById === null || !(await this.permissions.can(view.ownedById, T.createRow, tableScope(context.table, context.workspaceId))))) {
      throw Errors.permissionDenied();
    }
    const forms = await this.formFields(access);
    const conditional = (form: FormField) => form.options.show_when_matching_conditions && form.options.conditions.length > 0;
    const errors: ErrorTree = {};
    for (const form of forms) {
      const key = `field_${form.field.id}`;
      const has = Object.prototype.hasOwnProperty.call(given, key);
      if (form.options.required && !conditional(form) && (!has || isEmpty(given[key]))) errors[key] = required();
      else if (has && !form.options.include_all_select_options && context.selectOptions.has(form.field.id)) {
        const allowed = new Set(form.options.allowed_select_options);
        for (const value of [given[key] ?? []].flat()) {
          if (typeof value === 'number' && !allowed.has(value)) errors[key] = [{ error: `The provided select option ${value} is not allowed.`, code: 'invalid' }];
        }
      }
    }
    if (Object.keys(errors).length) throw validationError(errors);
    const ignored = new Set<number>();
    for (;;) {
      const values: Record<string, unknown> = {};
      for (const form of forms) {
        const key = `field_${form.field.id}`;
        if (!ignored.has(form.field.id) && Object.prototype.hasOwnProperty.call(given, key)) values[key] = given[key];
      }
      try {
        const rowId = await this.db.run(async () => {
          const { rows } = await this.rows.insertRows(user ?? null, context, [values], { before: null, userFieldNames: false }, true);
          const row = rows[0];
          for (const form of forms.filter(conditional)) {
            const key = `field_${form.field.id}`;
            const shown = await this.matches(context, row.id, form.options);
            if (!shown && key in values) throw new IgnoredValue(form.field.id);
            if (shown && form.options.required && isEmpty(row[key])) throw validationError({ [key]: required() });
          }
          await this.notifySubmitted(access, forms, values, row, user ?? null);
          return row.id;
        });
        const props = specValues(this.formType, view.properties);
        return {
          submit_action: props.submit_action as string,
          submit_action_message: props.submit_action_message as string,
          submit_action_redirect_url: props.submit_action_redirect_url as string,
          row_id: rowId,
        };
      } catch (error) {
        if (!(error instanceof IgnoredValue)) throw error;
        ignored.add(error.fieldId);
      }
    }
  }

  /**
   * `form_submitted` to the members who asked for it (`receive_notification_on_submit`): the
   * submitted fields' names and readable values in the form's order; the submitter is the
   * sender (none when anonymous). In the submission's unit of work.
   */
  private async notifySubmitted(access: ViewAccess, forms: FormField[], values: Record<string, unknown>, row: Record<string, unknown> & { id: number }, user: UserEntity | null): Promise<void> {
    const { view, context } = access;
    const userIds = ((view.properties.users_to_notify_on_submit as number[] | null) ?? []).filter((id) => typeof id === 'number');
    if (!userIds.length) return;
    const submitted = forms
      .filter((form) => `field_${form.field.id}` in values)
      .map((form) => [form.field.name, this.types.of(form.field).toText(form.field, row[`field_${form.field.id}`]) ?? '']);
    await this.notifications.notifyUsers({
      userIds,
      type: 'form_submitted',
      workspaceId: context.workspaceId,
      senderId: user?.id ?? null,
      membersOnly: true,
      data: { form_id: view.id, form_name: view.name, table_id: context.table.id, table_name: context.table.name, database_id: context.table.databaseId, row_id: row.id, values: submitted },
    });
  }

  /** Whether the row matches a field's conditions (compiled by the rows' filter compiler). */
  private async matches(context: TableContext, rowId: number, options: FormFieldOptions): Promise<boolean> {
    const leaves = (group: number | null): FilterLeaf[] =>
      options.conditions.filter((c) => c.group === group).map((c) => ({ field: context.byId.get(c.field)!, type: c.type, value: c.value }));
    const groups = (parent: number | null): FilterTree[] =>
      options.condition_groups.filter((g) => g.parent_group === parent).map((g) => ({ filter_type: g.filter_type, filters: leaves(g.id), groups: groups(g.id) }));
    const tree: FilterTree = { filter_type: options.condition_type, filters: leaves(null), groups: groups(null) };
    const { count } = await this.rows.select(context, { filters: tree, search: null, sorts: [], rowIds: [rowId] }, false, 0, 0);
    return count > 0;
  }
}

/** A view's settings with their defaults, in the type's order. */
function specValues(type: FormViewType, stored: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(type.properties)) values[key] = stored[key] ?? (spec as { default?: unknown }).default ?? null;
  return values;
}
