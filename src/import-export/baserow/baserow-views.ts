import type { ViewDocument } from '../../database/serialization/database-document';
import { ArchiveRefused } from '../import-export.errors';
import type { WorkspacePeople } from './baserow-cells';

export type BaserowView = Record<string, unknown> & { id: number; type: string; name: string };

/** Filter types whose value is a user id, written as the user's e-mail in Baserow's export. */
const USER_FILTERS = new Set(['multiple_collaborators_has', 'multiple_collaborators_has_not', 'user_is', 'user_is_not']);

/** The keys of each view type's `export_serialized` beyond the base ones, as Rowspace's view properties name them. */
const TYPE_KEYS: Record<string, { baserow: string; rowspace: string }[]> = {
  grid: [
    { baserow: 'row_identifier_type', rowspace: 'row_identifier_type' },
    { baserow: 'row_height_size', rowspace: 'row_height_size' },
  ],
  gallery: [{ baserow: 'card_cover_image_field_id', rowspace: 'card_cover_image_field' }],
  kanban: [
    { baserow: 'single_select_field_id', rowspace: 'single_select_field' },
    { baserow: 'card_cover_image_field_id', rowspace: 'card_cover_image_field' },
  ],
  form: ['title', 'description', 'cover_image', 'logo_image', 'submit_text', 'submit_action', 'submit_action_message', 'submit_action_redirect_url'].map((key) => ({ baserow: key, rowspace: key })),
};

/** The field option keys of each view type's export. */
const OPTION_KEYS: Record<string, string[]> = {
  grid: ['width', 'hidden', 'order', 'aggregation_type', 'aggregation_raw_type'],
  gallery: ['hidden', 'order'],
  kanban: ['hidden', 'order'],
  form: ['name', 'description', 'enabled', 'required', 'order', 'show_when_matching_conditions', 'condition_type', 'conditions', 'condition_groups', 'field_component', 'include_all_select_options', 'allowed_select_options'],
};
const CAN_FILTER = new Set(['grid', 'gallery', 'kanban']);
const CAN_SORT = new Set(['grid', 'gallery', 'kanban']);
const CAN_GROUP = new Set(['grid']);
const CAN_DECORATE = new Set(['grid', 'gallery', 'kanban']);

const userValue = (type: string, value: string, map: (v: string) => string): string => (USER_FILTERS.has(type) ? map(value) : value);

/**
 * Rowspace's view document as Baserow's `ViewType.export_serialized` writes it. The ids of
 * filters, groups, sorts, group-bys, decorations and field options are numbered in the export
 * (Baserow's import only maps them).
 */
export function toBaserowView(doc: ViewDocument, people: WorkspacePeople, nextId: () => number): BaserowView {
  const view: BaserowView = {
    id: doc.id,
    type: doc.type,
    name: doc.name,
    order: doc.order,
    ownership_type: doc.ownership_type ?? 'collaborative',
    owned_by: null,
  };
  const email = (value: string) => (/^\d+$/.test(value) ? (people.emailOf(Number(value)) ?? '') : '');
  if (CAN_FILTER.has(doc.type)) {
    view.filter_type = doc.filter_type ?? 'AND';
    view.filters_disabled = doc.filters_disabled ?? false;
    view.filters = (doc.filters ?? []).map((f) => ({ id: nextId(), field_id: f.field_id, type: f.type, value: userValue(f.type, String(f.value ?? ''), email), group: f.group_id ?? null }));
    view.filter_groups = (doc.filter_groups ?? []).map((g) => ({ id: g.id, filter_type: g.filter_type, parent_group: g.parent_group_id ?? null }));
  }
  if (CAN_SORT.has(doc.type)) view.sortings = (doc.sorts ?? []).map((s) => ({ id: nextId(), field_id: s.field_id, order: s.order }));
  if (CAN_GROUP.has(doc.type)) view.group_bys = (doc.group_bys ?? []).map((g) => ({ id: nextId(), field_id: g.field_id, order: g.order }));
  if (CAN_DECORATE.has(doc.type)) {
    view.decorations = (doc.decorations ?? []).map((d) => ({ id: nextId(), type: d.type, value_provider_type: d.value_provider_type, value_provider_conf: d.value_provider_conf, order: d.order }));
  }
  view.public = false;
  const properties = doc.properties ?? {};
  for (const { baserow, rowspace } of TYPE_KEYS[doc.type] ?? []) {
    // Gallery and kanban leave an unset cover field out, as Baserow does.
    if (baserow === 'card_cover_image_field_id' && properties[rowspace] == null) continue;
    view[baserow] = properties[rowspace] ?? null;
  }
  const keys = OPTION_KEYS[doc.type];
  if (keys) {
    view.field_options = (doc.field_options ?? []).map((option) => {
      const out: Record<string, unknown> = { id: nextId(), field_id: option.field_id };
      for (const key of keys) if (key in option) out[key] = option[key];
      return out;
    });
  }
  return view;
}

/** Baserow's serialized view as Rowspace's view document (ids are Baserow's exported ids, mapped by the import). */
export function fromBaserowView(view: BaserowView, people: WorkspacePeople): ViewDocument | null {
  const keys = TYPE_KEYS[view.type];
  // A view type Rowspace does not have (calendar, timeline) is left out, as Baserow leaves out what it cannot import.
  if (!keys) return null;
  const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
  const int = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);
  const id = (value: string) => {
    const found = people.idOf(value);
    return found === null ? '' : String(found);
  };
  const properties: Record<string, unknown> = {};
  for (const { baserow, rowspace } of keys) if (view[baserow] !== undefined) properties[rowspace] = view[baserow];
  for (const key of ['cover_image', 'logo_image']) if (key in properties) properties[key] = null;
  const doc: ViewDocument = {
    id: view.id,
    name: String(view.name),
    type: view.type,
    order: int(view.order) ?? 0,
    filter_type: view.filter_type === 'OR' ? 'OR' : 'AND',
    filters_disabled: view.filters_disabled === true,
    ownership_type: 'collaborative',
    properties,
    field_options: list(view.field_options)
      .filter((o) => int(o.field_id) !== null)
      .map((o) => {
        const out: { field_id: number } & Record<string, unknown> = { field_id: o.field_id as number };
        for (const key of OPTION_KEYS[view.type] ?? []) if (o[key] !== undefined) out[key] = o[key];
        return out;
      }),
    filter_groups: list(view.filter_groups)
      .filter((g) => int(g.id) !== null)
      .map((g) => ({ id: g.id as number, filter_type: g.filter_type === 'OR' ? 'OR' : 'AND', parent_group_id: int(g.parent_group) })),
    filters: list(view.filters)
      .filter((f) => int(f.field_id) !== null && typeof f.type === 'string')
      .map((f) => ({ field_id: f.field_id as number, type: String(f.type), value: userValue(String(f.type), String(f.value ?? ''), id), group_id: int(f.group) })),
    sorts: list(view.sortings)
      .filter((s) => int(s.field_id) !== null)
      .map((s) => ({ field_id: s.field_id as number, order: s.order === 'DESC' ? 'DESC' : 'ASC' })),
    group_bys: list(view.group_bys)
      .filter((g) => int(g.field_id) !== null)
      .map((g) => ({ field_id: g.field_id as number, order: g.order === 'DESC' ? 'DESC' : 'ASC' })),
    decorations: list(view.decorations).map((d, index) => ({
      type: String(d.type ?? ''),
      value_provider_type: String(d.value_provider_type ?? ''),
      value_provider_conf: d.value_provider_conf && typeof d.value_provider_conf === 'object' ? (d.value_provider_conf as Record<string, unknown>) : {},
      order: int(d.order) ?? index,
    })),
  };
  if (!doc.name) throw new ArchiveRefused('invalid', `The view ${view.id} has no name.`);
  return doc;
}
