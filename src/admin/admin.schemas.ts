import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const integer = { type: 'integer' } as const;
const dateTime = { type: 'string', format: 'date-time', nullable: true } as const;

const page = (item: SchemaObject): SchemaObject => ({
  type: 'object',
  properties: {
    count: integer,
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: { type: 'array', items: item },
  },
  required: ['count', 'next', 'previous', 'results'],
});

export const USER_ADMIN_SCHEMA: SchemaObject = {
  type: 'object',
  description: "Baserow's UserAdminResponseSerializer.",
  properties: {
    id: integer,
    username: { type: 'string', format: 'email' },
    name: { type: 'string' },
    workspaces: { type: 'array', items: { type: 'object', properties: { id: integer, name: { type: 'string' }, permissions: { type: 'string' } } } },
    last_login: dateTime,
    date_joined: dateTime,
    is_active: { type: 'boolean' },
    is_staff: { type: 'boolean' },
  },
};

export const USER_ADMIN_PAGE_SCHEMA = page(USER_ADMIN_SCHEMA);

export const WORKSPACE_ADMIN_PAGE_SCHEMA = page({
  type: 'object',
  description: "Baserow's WorkspacesAdminResponseSerializer.",
  properties: {
    id: integer,
    name: { type: 'string' },
    users: { type: 'array', items: { type: 'object', properties: { id: integer, email: { type: 'string' }, permissions: { type: 'string' } } } },
    application_count: integer,
    row_count: integer,
    storage_usage: { type: 'integer', nullable: true },
    seats_taken: { type: 'integer', nullable: true },
    free_users: { type: 'integer', nullable: true },
    created_on: dateTime,
  },
});

const perDay = { type: 'array', items: { type: 'object', properties: { date: { type: 'string', format: 'date' }, count: integer } } } as const;
const periods = ['last_24_hours', 'last_7_days', 'last_30_days'];

export const DASHBOARD_SCHEMA: SchemaObject = {
  type: 'object',
  description: "Baserow's AdminDashboardSerializer. `previous_*`: the period before (e.g. 48 to 24 hours ago).",
  properties: {
    total_users: integer,
    total_workspaces: integer,
    total_applications: integer,
    ...Object.fromEntries(
      ['new_users', 'active_users'].flatMap((prefix) => periods.flatMap((period) => [[`${prefix}_${period}`, integer], [`previous_${prefix}_${period}`, integer]])),
    ),
    new_users_per_day: perDay,
    active_users_per_day: perDay,
  },
};
