import type { SignedUp, TestApp } from './app';
import { pngImage, uploadFile } from './files';

/**
 * A database with two linked tables and fields of many types (selects with defaults, links
 * with related fields, a self link, formula, lookup, rollup, count), rows, and views with
 * filters, a filter group, sorts, a group-by, field options and a decoration, and a file cell: what the
 * serializer must carry through duplication.
 */
export interface RichDatabase {
  databaseId: number;
  workspaceId: number;
  projects: number;
  tasks: number;
  fields: Record<string, any>;
  options: Record<string, number>;
  gridId: number;
}

export async function richDatabase(t: TestApp, user: SignedUp, name = 'Planning'): Promise<RichDatabase> {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: user.token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const workspaceId = (await api('POST', '/api/workspaces/', { name: `${name} workspace` })).id;
  const databaseId = (await api('POST', `/api/applications/workspace/${workspaceId}/`, { name, type: 'database' })).id;
  const table = async (tableName: string) => {
    const id = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: tableName })).id;
    const fields = await api('GET', `/api/database/fields/table/${id}/`);
    for (const field of fields.filter((f: any) => !f.primary)) await api('DELETE', `/api/database/fields/${field.id}/`);
    const rows = (await api('GET', `/api/database/rows/table/${id}/`)).results;
    for (const row of rows) await api('DELETE', `/api/database/rows/table/${id}/${row.id}/`);
    return id;
  };
  const projects = await table('Projects');
  const tasks = await table('Tasks');
  const fields: Record<string, any> = {};
  const add = async (tableId: number, body: Record<string, unknown>) => {
    const field = await api('POST', `/api/database/fields/table/${tableId}/`, body);
    fields[String(body.name)] = field;
    return field;
  };
  await add(projects, { name: 'Budget', type: 'number', number_decimal_places: 2 });
  await add(projects, { name: 'Kind', type: 'single_select', select_options: [{ value: 'Internal', color: 'blue' }, { value: 'Client', color: 'green' }] });
  await add(tasks, { name: 'Status', type: 'single_select', select_options: [{ value: 'Todo', color: 'red' }, { value: 'Doing', color: 'yellow' }, { value: 'Done', color: 'green' }] });
  await add(tasks, { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'ui', color: 'blue' }, { value: 'api', color: 'dark-blue' }] });
  await add(tasks, { name: 'Due', type: 'date', date_include_time: false, date_format: 'ISO' });
  await add(tasks, { name: 'Hours', type: 'number', number_decimal_places: 1 });
  await add(tasks, { name: 'Done?', type: 'boolean' });
  await add(tasks, { name: 'Project', type: 'link_row', link_row_table_id: projects, has_related_field: true });
  await add(tasks, { name: 'Blocked by', type: 'link_row', link_row_table_id: tasks, has_related_field: false });
  await add(tasks, { name: 'Attachments', type: 'file' });
  const upload = await uploadFile(t, `JWT ${user.token}`, 'sketch.png', await pngImage(40, 30));
  if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${upload.text}`);
  const options: Record<string, number> = {};
  for (const field of ['Kind', 'Status', 'Tags']) for (const option of fields[field].select_options) options[option.value] = option.id;
  // The default option of a select is an option id of its field.
  fields.Status = await api('PATCH', `/api/database/fields/${fields.Status.id}/`, { single_select_default: options.Todo });

  const projectFields = await api('GET', `/api/database/fields/table/${projects}/`);
  fields.Tasks = projectFields.find((f: any) => f.name === 'Tasks');
  const p1 = await api('POST', `/api/database/rows/table/${projects}/?user_field_names=true`, { Name: 'Website', Budget: '1200.50', Kind: options.Client });
  const p2 = await api('POST', `/api/database/rows/table/${projects}/?user_field_names=true`, { Name: 'Backoffice', Budget: '300', Kind: options.Internal });
  const t1 = await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { Name: 'Design', Status: options.Done, Tags: [options.ui], Due: '2026-01-10', Hours: '4.5', 'Done?': true, Project: [p1.id], Attachments: [{ name: upload.body.name, visible_name: 'Sketch' }] });
  const t2 = await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { Name: 'Build', Status: options.Doing, Tags: [options.api, options.ui], Due: '2026-02-01', Hours: '12', Project: [p1.id], 'Blocked by': [t1.id] });
  await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { Name: 'Billing', Tags: [], Hours: '3', Project: [p2.id], 'Blocked by': [t2.id, t1.id] });
  // A trashed row is not copied.
  const gone = await api('POST', `/api/database/rows/table/${tasks}/?user_field_names=true`, { Name: 'Gone' });
  await api('DELETE', `/api/database/rows/table/${tasks}/${gone.id}/`);

  await add(tasks, { name: 'Cost', type: 'formula', formula: "field('Hours') * 100" });
  await add(tasks, { name: 'Double cost', type: 'formula', formula: "field('Cost') * 2" });
  await add(tasks, { name: 'Budget of project', type: 'lookup', through_field_id: fields.Project.id, target_field_id: fields.Budget.id });
  await add(projects, { name: 'Task count', type: 'count', through_field_id: fields.Tasks.id });
  await add(projects, { name: 'Hours total', type: 'rollup', through_field_id: fields.Tasks.id, target_field_id: fields.Hours.id, rollup_function: 'sum' });

  const gridId = (await api('GET', `/api/database/views/table/${tasks}/`))[0].id;
  await api('PATCH', `/api/database/views/${gridId}/`, { name: 'Open work', filter_type: 'OR' });
  await api('POST', `/api/database/views/${gridId}/filters/`, { field: fields.Status.id, type: 'single_select_equal', value: String(options.Doing) });
  const group = await api('POST', `/api/database/views/${gridId}/filter-groups/`, { filter_type: 'AND' });
  await api('POST', `/api/database/views/${gridId}/filters/`, { field: fields.Hours.id, type: 'higher_than', value: '2', group: group.id });
  await api('POST', `/api/database/views/${gridId}/filters/`, { field: fields.Tags.id, type: 'multiple_select_has', value: String(options.api), group: group.id });
  await api('POST', `/api/database/views/${gridId}/sortings/`, { field: fields.Due.id, order: 'DESC' });
  await api('POST', `/api/database/views/${gridId}/group_bys/`, { field: fields.Status.id, order: 'ASC' });
  await api('PATCH', `/api/database/views/${gridId}/field-options/`, { field_options: { [fields.Hours.id]: { width: 321, hidden: true } } });
  await api('POST', `/api/database/views/${gridId}/decorations/`, { type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: fields.Status.id } });
  await api('POST', `/api/database/views/table/${tasks}/`, { name: 'Board', type: 'kanban', single_select_field: fields.Status.id });
  return { databaseId, workspaceId, projects, tasks, fields, options, gridId };
}

/** A table's rows with names as keys and option and field ids left out (they differ between copies). */
export async function comparableRows(t: TestApp, token: string, tableId: number, viewId?: number): Promise<any[]> {
  const path = viewId ? `/api/database/views/grid/${viewId}/?user_field_names=true` : `/api/database/rows/table/${tableId}/?user_field_names=true`;
  const res = await t.request('GET', path, { token });
  const rows = viewId ? res.body.results : res.body.results;
  const strip = (value: any): any => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object' && 'color' in value) return { value: value.value, color: value.color };
    return value;
  };
  return rows.map((row: any) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, strip(value)])));
}
