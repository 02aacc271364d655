import { createHash } from 'node:crypto';

/**
 * (Count, rollup and lookup fields export no `formula_type`: it is not among their `allowed_fields`.)
 *
 * A database as Baserow 1.35.3's `DatabaseApplicationType.export_serialized` writes it, by hand
 * from Baserow's export serializers (`FieldType.export_serialized` with each type's
 * `allowed_fields`, `get_export_serialized_value` of each type, `ViewType.export_serialized` of
 * grid, gallery, form, kanban and calendar): one field of each of the 26 field types Rowspace
 * has, views with filters, a filter group, sorts, group-bys, decorations and field options.
 */

const DATE_KEYS = { date_format: 'EU', date_include_time: false, date_time_format: '24', date_show_tzinfo: false, date_force_timezone: null };
const FORMULA_RESULT = {
  number_decimal_places: null,
  number_prefix: null,
  number_suffix: null,
  number_separator: null,
  duration_format: null,
  date_format: null,
  date_include_time: null,
  date_time_format: null,
  date_show_tzinfo: null,
  date_force_timezone: null,
  array_formula_type: null,
  nullable: true,
};

function field(id: number, type: string, name: string, order: number, extra: Record<string, unknown> = {}, primary = false): Record<string, unknown> {
  const readOnly = ['formula', 'count', 'rollup', 'lookup', 'created_on', 'last_modified', 'created_by', 'last_modified_by', 'uuid', 'autonumber'].includes(type);
  return { id, type, name, description: null, order, primary, read_only: readOnly, db_index: false, immutable_type: false, immutable_properties: false, field_constraints: [], ...extra };
}

/** A user file as Baserow names it: `<32 characters>_<sha256 of the content>.<extension>`. */
export function userFileName(unique: string, content: Buffer, extension: string): string {
  return `${unique}_${createHash('sha256').update(content).digest('hex')}.${extension}`;
}

export const CONTRACT = Buffer.from('Contract between Acme and us.\n');
export const CONTRACT_NAME = userFileName('AbCdEfGhIjKlMnOpQrStUvWxYz012345', CONTRACT, 'txt');
export const LOGO = Buffer.from('GIF89a fake logo bytes');
export const LOGO_NAME = userFileName('ZyXwVuTsRqPoNmLkJiHgFeDcBa543210', LOGO, 'gif');

/** The serialized database; `email` is the e-mail of the collaborator and creator its cells name. */
export function baserowDatabase(email: string): Record<string, unknown> {
  const customers = [
    field(1001, 'text', 'Name', 0, { text_default: '' }, true),
    field(1002, 'long_text', 'Notes', 1, { long_text_enable_rich_text: false }),
    field(1003, 'url', 'Site', 2),
    field(1004, 'email', 'Mail', 3),
    field(1005, 'number', 'Amount', 4, { number_decimal_places: 2, number_negative: true, number_prefix: '', number_suffix: '', number_separator: '', number_default: null }),
    field(1006, 'rating', 'Stars', 5, { max_value: 5, color: 'dark-orange', style: 'star' }),
    field(1007, 'boolean', 'Active', 6, { boolean_default: false }),
    field(1008, 'date', 'Since', 7, { ...DATE_KEYS, date_format: 'ISO' }),
    field(1009, 'date', 'Meeting', 8, { ...DATE_KEYS, date_format: 'ISO', date_include_time: true }),
    field(1010, 'last_modified', 'Changed', 9, { ...DATE_KEYS, date_format: 'ISO', date_include_time: true }),
    field(1011, 'created_on', 'Created', 10, { ...DATE_KEYS, date_format: 'ISO', date_include_time: true }),
    field(1012, 'last_modified_by', 'Changed by', 11),
    field(1013, 'created_by', 'Created by', 12),
    field(1014, 'link_row', 'Orders', 13, { link_row_table_id: 102, link_row_related_field_id: 2010, link_row_limit_selection_view_id: null, has_related_field: true, link_row_multiple_relationships: true }),
    field(1015, 'file', 'Docs', 14),
    field(1016, 'single_select', 'Tier', 15, {
      single_select_default: 1,
      select_options: [
        { id: 1, value: 'Gold', color: 'yellow', order: 0 },
        { id: 2, value: 'Silver', color: 'light-gray', order: 1 },
      ],
    }),
    field(1017, 'multiple_select', 'Tags', 16, {
      multiple_select_default: [],
      select_options: [
        { id: 3, value: 'vip', color: 'red', order: 0 },
        { id: 4, value: 'new', color: 'green', order: 1 },
        { id: 5, value: 'eu', color: 'blue', order: 2 },
      ],
    }),
    field(1018, 'phone_number', 'Phone', 17),
    field(1019, 'formula', 'Double', 18, { ...FORMULA_RESULT, number_decimal_places: 2, formula: "field('Amount') * 2", formula_type: 'number' }),
    field(1020, 'count', 'Order count', 19, { ...FORMULA_RESULT, number_decimal_places: 0, through_field_id: 1014 }),
    field(1021, 'rollup', 'Quantity', 20, { ...FORMULA_RESULT, number_decimal_places: 0, through_field_id: 1014, target_field_id: 2002, rollup_function: 'sum' }),
    field(1022, 'lookup', 'Order names', 21, { ...FORMULA_RESULT, array_formula_type: 'text', through_field_id: 1014, through_field_name: 'Orders', target_field_id: 2001, target_field_name: 'Order' }),
    field(1023, 'multiple_collaborators', 'Owners', 22, { notify_user_when_added: true }),
    field(1024, 'uuid', 'Ref', 23),
    field(1025, 'autonumber', 'No', 24),
    field(1026, 'duration', 'Call', 25, { duration_format: 'h:mm' }),
    field(1027, 'password', 'Secret', 26, { allow_endpoint_authentication: false }),
  ];
  const orders = [
    field(2001, 'text', 'Order', 0, { text_default: '' }, true),
    field(2002, 'number', 'Qty', 1, { number_decimal_places: 0, number_negative: false, number_prefix: '', number_suffix: '', number_separator: '', number_default: null }),
    field(2010, 'link_row', 'Customer', 2, { link_row_table_id: 101, link_row_related_field_id: 1014, link_row_limit_selection_view_id: null, has_related_field: true, link_row_multiple_relationships: true }),
  ];
  const row = (id: number, order: string, created: string, updated: string, cells: Record<string, unknown>) => ({ id, order, created_on: created, updated_on: updated, created_by: email, last_modified_by: email, ...cells });
  const customerRows = [
    row(1, '1.00000000000000000000', '2024-01-05T10:00:00.123456+00:00', '2024-02-01T08:15:00+00:00', {
      field_1001: 'Acme',
      field_1002: 'Line 1\nLine 2',
      field_1003: 'https://acme.test',
      field_1004: 'buyer@acme.test',
      field_1005: '1200.50',
      field_1006: 4,
      field_1007: 'true',
      field_1008: '2024-03-01',
      field_1009: '2024-03-01T09:30:00+00:00',
      field_1010: null,
      field_1011: null,
      field_1012: email,
      field_1013: email,
      field_1014: [11, 12],
      field_1015: [{ name: CONTRACT_NAME, visible_name: 'Contract.txt', original_name: CONTRACT_NAME, size: CONTRACT.length }],
      field_1016: 2,
      field_1017: [3, 5],
      field_1018: '+31 20 555 0100',
      field_1019: null,
      field_1020: null,
      field_1021: null,
      field_1022: null,
      field_1023: [email, 'stranger@elsewhere.test'],
      field_1024: '0e7a3f1c-5a1b-4c2d-9e8f-123456789abc',
      field_1025: 1,
      field_1026: 5400.0,
      field_1027: 'pbkdf2_sha256$720000$salt$hash',
    }),
    row(2, '2.00000000000000000000', '2024-01-06T11:00:00+00:00', '2024-01-06T11:00:00+00:00', {
      // Made by someone who is not a member where it is imported: nobody there.
      created_by: 'stranger@elsewhere.test',
      field_1001: 'Globex',
      field_1002: null,
      field_1003: '',
      field_1004: '',
      field_1005: '-15.00',
      field_1006: 0,
      field_1007: 'false',
      field_1008: null,
      field_1009: null,
      field_1010: null,
      field_1011: null,
      field_1012: null,
      field_1013: null,
      field_1014: [13],
      field_1015: [
        { name: LOGO_NAME, visible_name: 'logo.gif', original_name: LOGO_NAME, size: LOGO.length },
        { name: CONTRACT_NAME, visible_name: 'Same contract', original_name: CONTRACT_NAME, size: CONTRACT.length },
      ],
      field_1016: null,
      field_1017: [],
      field_1018: '',
      field_1019: null,
      field_1020: null,
      field_1021: null,
      field_1022: null,
      field_1023: [],
      field_1024: '7d4b0c8e-1111-4222-8333-444455556666',
      field_1025: 2,
      field_1026: null,
      field_1027: null,
    }),
  ];
  const orderRows = [
    row(11, '1.00000000000000000000', '2024-01-05T10:00:00+00:00', '2024-01-05T10:00:00+00:00', { field_2001: 'A-1', field_2002: '3', field_2010: [1] }),
    row(12, '2.00000000000000000000', '2024-01-05T10:00:00+00:00', '2024-01-05T10:00:00+00:00', { field_2001: 'A-2', field_2002: '4', field_2010: [1] }),
    row(13, '3.00000000000000000000', '2024-01-05T10:00:00+00:00', '2024-01-05T10:00:00+00:00', { field_2001: 'G-1', field_2002: '10', field_2010: [2] }),
  ];
  const base = (id: number, type: string, name: string, order: number) => ({ id, type, name, order, ownership_type: 'collaborative', owned_by: null });
  const grid = {
    ...base(301, 'grid', 'All customers', 1),
    filter_type: 'AND',
    filters_disabled: false,
    filters: [
      { id: 401, field_id: 1016, type: 'single_select_equal', value: '2', group: null },
      { id: 402, field_id: 1007, type: 'boolean', value: '1', group: 501 },
      { id: 403, field_id: 1005, type: 'higher_than', value: '100', group: 501 },
      { id: 404, field_id: 1023, type: 'multiple_collaborators_has', value: email, group: null },
    ],
    filter_groups: [{ id: 501, filter_type: 'OR', parent_group: null }],
    sortings: [{ id: 601, field_id: 1005, order: 'DESC' }],
    group_bys: [{ id: 701, field_id: 1016, order: 'ASC' }],
    decorations: [
      { id: 801, type: 'left_border_color', value_provider_type: 'single_select_color', value_provider_conf: { field_id: 1016 }, order: 1 },
      {
        id: 802,
        type: 'background_color',
        value_provider_type: 'conditional_color',
        value_provider_conf: {
          colors: [{ id: 'c1', color: 'light-red', filter_type: 'AND', filters: [{ id: 'f1', type: 'single_select_equal', field: 1016, group: null, value: '1' }], filter_groups: [] }],
        },
        order: 2,
      },
    ],
    public: false,
    row_identifier_type: 'count',
    row_height_size: 'medium',
    field_options: [
      { id: 901, field_id: 1001, width: 250, hidden: false, order: 0, aggregation_type: '', aggregation_raw_type: '' },
      { id: 902, field_id: 1005, width: 120, hidden: false, order: 1, aggregation_type: 'sum', aggregation_raw_type: 'sum' },
      { id: 903, field_id: 1002, width: 200, hidden: true, order: 2, aggregation_type: '', aggregation_raw_type: '' },
    ],
  };
  const gallery = {
    ...base(302, 'gallery', 'Cards', 2),
    filter_type: 'AND',
    filters_disabled: false,
    filters: [{ id: 405, field_id: 1016, type: 'single_select_is_any_of', value: '1,2', group: null }],
    filter_groups: [],
    sortings: [{ id: 602, field_id: 1001, order: 'ASC' }],
    decorations: [],
    public: false,
    card_cover_image_field_id: 1015,
    field_options: [{ id: 904, field_id: 1001, hidden: false, order: 0 }],
  };
  const form = {
    ...base(303, 'form', 'Sign up', 3),
    public: false,
    title: 'Become a customer',
    description: 'Tell us about you',
    cover_image: null,
    logo_image: null,
    submit_text: 'Send',
    submit_action: 'MESSAGE',
    submit_action_message: 'Thanks!',
    submit_action_redirect_url: '',
    field_options: [
      {
        id: 905,
        field_id: 1001,
        name: 'Company',
        description: 'Your company',
        enabled: true,
        required: true,
        order: 0,
        show_when_matching_conditions: false,
        condition_type: 'AND',
        conditions: [],
        condition_groups: [],
        field_component: 'default',
        include_all_select_options: true,
        allowed_select_options: [],
      },
    ],
  };
  const kanban = {
    ...base(304, 'kanban', 'Board', 4),
    filter_type: 'AND',
    filters_disabled: false,
    filters: [],
    filter_groups: [],
    sortings: [],
    decorations: [],
    public: false,
    single_select_field_id: 1016,
    field_options: [{ id: 906, field_id: 1001, hidden: false, order: 0 }],
  };
  // A premium view type Rowspace does not have: left out by the import.
  const calendar = { ...base(305, 'calendar', 'Calendar', 5), filter_type: 'AND', filters_disabled: false, filters: [], filter_groups: [], sortings: [], decorations: [], public: false, date_field_id: 1008, field_options: [] };
  const ordersGrid = { ...base(306, 'grid', 'Grid', 1), filter_type: 'AND', filters_disabled: false, filters: [], filter_groups: [], sortings: [], group_bys: [], decorations: [], public: false, row_identifier_type: 'id', row_height_size: 'small', field_options: [] };
  return {
    id: 77,
    name: 'CRM',
    order: 1,
    type: 'database',
    tables: [
      { id: 101, name: 'Customers', order: 1, fields: customers, views: [grid, gallery, form, kanban, calendar], rows: customerRows, data_sync: null, field_rules: [] },
      { id: 102, name: 'Orders', order: 2, fields: orders, views: [ordersGrid], rows: orderRows, data_sync: null, field_rules: [] },
    ],
  };
}
