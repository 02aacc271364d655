import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FieldSpec } from '../core/validation/field';
import { specSchema } from '../core/validation/field';
import { INT32_MAX } from '../core/validation/ids';

export type { SchemaObject };
export { specSchema };

/** An object schema from specs; `partial` (updates) makes every key optional. */
export function specsSchema(specs: Readonly<Record<string, FieldSpec>>, options: { partial?: boolean } = {}): SchemaObject {
  const required = options.partial ? [] : Object.entries(specs).filter(([, s]) => s.required !== false).map(([k]) => k);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(specs).map(([key, spec]) => [key, specSchema(spec)])),
    ...(required.length ? { required } : {}),
  };
}

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` }) as SchemaObject;
const id: SchemaObject = { type: 'integer', minimum: 1, maximum: INT32_MAX };
const anyObject: SchemaObject = { type: 'object', additionalProperties: true };
const tokenPermission: SchemaObject = {
  oneOf: [
    { type: 'boolean' },
    { type: 'array', items: { type: 'array', minItems: 2, maxItems: 2, items: { oneOf: [{ type: 'string', enum: ['database', 'table'] }, { type: 'integer' }] } } },
  ],
  description: '`true` (the whole workspace), `false`, or `[["database", id], ["table", id]]`.',
};

/**
 * The shapes Rowspace answers, as components of the document. Objects stay open
 * (`additionalProperties`) where Baserow's keys depend on the type (fields, views, applications).
 */
export const COMPONENT_SCHEMAS: Record<string, SchemaObject> = {
  Error: {
    type: 'object',
    description: "Baserow's error envelope: a code such as `ERROR_REQUEST_BODY_VALIDATION` and a message or a detail tree.",
    properties: { error: { type: 'string' }, detail: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }, { type: 'array', items: {} }] } },
  },
  Row: {
    type: 'object',
    description: 'A row: `id`, `order` and a value per field, keyed `field_<id>` (or by name with `user_field_names`).',
    properties: { id, order: { type: 'string', example: '1.00000000000000000000' } },
    required: ['id', 'order'],
    additionalProperties: true,
  },
  RowValues: { type: 'object', description: 'Cell values keyed `field_<id>` (or by name with `user_field_names`); read-only fields are refused.', additionalProperties: true },
  RowPage: {
    type: 'object',
    properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: ref('Row') } },
    required: ['results'],
  },
  Rows: { type: 'object', properties: { items: { type: 'array', items: ref('Row') }, metadata: anyObject }, required: ['items'] },
  Field: {
    type: 'object',
    description: "A field: common keys and the type's properties.",
    properties: { id, table_id: id, name: { type: 'string' }, order: { type: 'integer' }, type: { type: 'string' }, primary: { type: 'boolean' }, read_only: { type: 'boolean' } },
    required: ['id', 'table_id', 'name', 'type'],
    additionalProperties: true,
  },
  View: {
    type: 'object',
    properties: { id, table_id: id, name: { type: 'string' }, order: { type: 'integer' }, type: { type: 'string' } },
    required: ['id', 'name', 'type'],
    additionalProperties: true,
  },
  Table: {
    type: 'object',
    properties: { id, name: { type: 'string' }, order: { type: 'integer' }, database_id: id },
    required: ['id', 'name', 'order', 'database_id'],
    additionalProperties: true,
  },
  Application: {
    type: 'object',
    properties: { id, name: { type: 'string' }, order: { type: 'integer' }, type: { type: 'string' }, workspace: anyObject },
    required: ['id', 'name', 'type'],
    additionalProperties: true,
  },
  Workspace: {
    type: 'object',
    properties: { id, name: { type: 'string' } },
    required: ['id', 'name'],
    additionalProperties: true,
  },
  Job: {
    type: 'object',
    properties: { id, type: { type: 'string' }, state: { type: 'string' }, progress_percentage: { type: 'number' } },
    required: ['id', 'type', 'state'],
    additionalProperties: true,
  },
  User: {
    type: 'object',
    properties: { id, username: { type: 'string' }, first_name: { type: 'string' }, email: { type: 'string' } },
    additionalProperties: true,
  },
  McpEndpoint: {
    type: 'object',
    description: 'An MCP endpoint: its URL `/mcp/<key>/sse` (or `/mcp/<key>/` for streamable HTTP) lets an MCP client act as its owner in its workspace.',
    properties: {
      id,
      name: { type: 'string', maxLength: 100 },
      key: { type: 'string', minLength: 32, maxLength: 32, nullable: true, description: 'Null only when SECRET_KEY changed since the key was made.' },
      workspace_id: id,
      workspace_name: { type: 'string' },
      created: { type: 'string', format: 'date-time' },
    },
    required: ['id', 'name', 'key', 'workspace_id', 'workspace_name', 'created'],
  },
  DatabaseToken: {
    type: 'object',
    description: 'A database token: send `Authorization: Token <key>` to the row endpoints.',
    properties: {
      id,
      name: { type: 'string', maxLength: 100 },
      workspace: id,
      key: { type: 'string', minLength: 32, maxLength: 32, nullable: true, description: 'Null only when SECRET_KEY changed since the key was made: rotate it to see a new one.' },
      permissions: {
        type: 'object',
        properties: { create: tokenPermission, read: tokenPermission, update: tokenPermission, delete: tokenPermission },
        required: ['create', 'read', 'update', 'delete'],
      },
    },
    required: ['id', 'name', 'workspace', 'key', 'permissions'],
  },
  TokenAuth: {
    type: 'object',
    description: 'The user and a JWT pair: send `Authorization: JWT <access_token>`.',
    properties: {
      user: ref('User'),
      access_token: { type: 'string' },
      refresh_token: { type: 'string' },
      token: { type: 'string', deprecated: true },
      active_licenses: ref('ActiveLicenses'),
    },
    additionalProperties: true,
  },
  ActiveLicenses: {
    type: 'object',
    description: "The license types whose features the user has (Baserow premium's user data): `premium`, instance wide.",
    properties: {
      instance_wide: { type: 'object', additionalProperties: { type: 'boolean' }, example: { premium: true, enterprise: true } },
      per_workspace: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'boolean' } } },
    },
    required: ['instance_wide', 'per_workspace'],
  },
};

/** Schemas for answers: a component by name, a list of it, or any JSON object. */
export const Schemas = {
  ref,
  list: (name: string): SchemaObject => ({ type: 'array', items: ref(name) }),
  object: anyObject,
  any: {} as SchemaObject,
};
