import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { INT32_MAX } from '../../core/validation/ids';
import { DatabaseErrors } from '../../database/database.errors';
import { ApiValidationPipe } from '../../core/validation/validation.pipe';
import { rowRequestSchema } from '../../database/fields/cell-request-schema';
import { FieldTypeRegistry } from '../../database/fields/field-type';
import { ListRowsQuery } from '../../database/rows/rows.query';
import { RowsService } from '../../database/rows/rows.service';
import { tableScope, TableContextService } from '../../database/table-context';
import { TableEntity } from '../../database/table.entity';
import { OperationType, PermissionService, TableOperations as T } from '../../permissions';
import type { ActiveEndpoint } from '../mcp-endpoints.service';
import { checkArguments, McpTool, McpToolListing, McpToolResult, text } from '../mcp-tool';
import { EndpointTables } from './tables.tools';

const NOT_IN_WORKSPACE = text('Table not in endpoint workspace.');

/** What the row tools share: the tables an operation is allowed on, their body schemas, the REST row services. */
@Injectable()
export class RowToolSupport {
  constructor(
    readonly tables: EndpointTables,
    readonly rows: RowsService,
    private readonly contexts: TableContextService,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly permissions: PermissionService,
  ) {}

  /** The visible tables on which the owner may do `operation` (Baserow's `remove_table_no_permission`). */
  async allowed(endpoint: ActiveEndpoint, operation: OperationType): Promise<TableEntity[]> {
    const workspaceId = endpoint.endpoint.workspaceId;
    const reader = await this.permissions.reader(endpoint.user.id, workspaceId);
    return (await this.tables.visible(endpoint)).filter((table) => reader.can(operation, tableScope(table, workspaceId)));
  }

  /** The row body schema of a table, with user field names. */
  async rowSchema(table: TableEntity, workspaceId: number): Promise<Record<string, unknown>> {
    const context = await this.contexts.withFields(table, workspaceId);
    return rowRequestSchema(context.fields, (type) => this.fieldTypes.get(type), (fieldId) => context.selectOptions.get(fieldId) ?? []);
  }
}

/** A row id the REST route could be called with: any other names no row. */
function rowId(id: number): number {
  if (id < 1 || id > INT32_MAX) throw DatabaseErrors.rowDoesNotExist([id]);
  return id;
}

/** A table id from a tool name's `{id}`: digits only (anything else names no table). */
const tableIdOf = (param: string): number => (/^\d{1,10}$/.test(param) ? Number(param) : NaN);

/** `list_table_rows` (Baserow's `ListRowsMcpTool`), with Rowspace's `filters` beside Baserow's `search`, `page` and `size`. */
@Injectable()
export class ListRowsTool implements McpTool {
  readonly type = 'list_table_rows';
  readonly name = 'list_table_rows';
  private readonly pipe = new ApiValidationPipe();

  constructor(
    private readonly support: RowToolSupport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(): Promise<McpToolListing[]> {
    return [
      {
        name: this.name,
        description: 'Lists the rows/records of the provided `table_id`.',
        inputSchema: {
          type: 'object',
          properties: {
            table_id: { type: 'integer', description: 'The ID of the table where to list the rows from.' },
            search: { type: 'string', description: 'Optionally search in the whole table.' },
            filters: {
              type: 'object',
              description:
                'Optionally only the rows matching these filters: `{"filter_type": "AND" | "OR", "filters": [{"field": "<field name>", "type": "<filter type, e.g. equal, contains, higher_than>", "value": "<value>"}], "groups": [<nested filters>]}`.',
            },
            page: { type: 'integer', default: 1, description: 'Rows/records are paginated. Provide if a different page should be fetched.' },
            size: { type: 'integer', default: 100, description: 'Maximum rows/records that must be returned.' },
          },
          required: ['table_id'],
        },
      },
    ];
  }

  async call(endpoint: ActiveEndpoint, _params: Record<string, string>, args: Record<string, unknown>): Promise<McpToolResult> {
    checkArguments(args, { table_id: 'integer', search: 'string', filters: 'object', page: 'integer', size: 'integer' }, ['table_id']);
    const tableId = args.table_id as number;
    if (!(await this.support.tables.inWorkspace(endpoint, tableId))) return NOT_IN_WORKSPACE;
    // The query the REST route would be sent (Baserow's tool calls the route with these parameters).
    const raw: Record<string, string> = { user_field_names: 'true', search: String(args.search ?? ''), page: String(args.page ?? 1), size: String(args.size ?? 100) };
    if (args.filters !== undefined) raw.filters = JSON.stringify(args.filters);
    const url = new URL(`${this.config.publicUrl}/api/database/rows/table/${tableId}/`);
    for (const [key, value] of Object.entries(raw)) url.searchParams.set(key, value);
    const query = this.pipe.transform(raw, { type: 'query', metatype: ListRowsQuery }) as ListRowsQuery;
    return text(JSON.stringify(await this.support.rows.list(endpoint.user, tableId, query, url)));
  }
}

/** `create_row_table_{id}` (Baserow's `CreateRowMcpTool`): one tool per table the owner may create rows in. */
@Injectable()
export class CreateRowTool implements McpTool {
  readonly type = 'create_table_row';
  readonly name = 'create_row_table_{id}';

  constructor(private readonly support: RowToolSupport) {}

  async list(endpoint: ActiveEndpoint): Promise<McpToolListing[]> {
    const tools: McpToolListing[] = [];
    for (const table of await this.support.allowed(endpoint, T.createRow)) {
      tools.push({
        name: `create_row_table_${table.id}`,
        description: `Create a new row/record in table with id ${table.id}, named "${table.name}".`,
        inputSchema: { type: 'object', properties: { row: await this.support.rowSchema(table, endpoint.endpoint.workspaceId) }, required: ['row'] },
      });
    }
    return tools;
  }

  async call(endpoint: ActiveEndpoint, params: Record<string, string>, args: Record<string, unknown>): Promise<McpToolResult> {
    const tableId = tableIdOf(params.id);
    if (!(await this.support.tables.inWorkspace(endpoint, tableId))) return NOT_IN_WORKSPACE;
    checkArguments(args, { row: 'object' }, ['row']);
    return text(JSON.stringify(await this.support.rows.create(endpoint.user, tableId, args.row, { before: null, userFieldNames: true })));
  }
}

/** `update_row_table_{id}` (Baserow's `UpdateRowMcpTool`): one tool per table the owner may update rows in. */
@Injectable()
export class UpdateRowTool implements McpTool {
  readonly type = 'update_table_row';
  readonly name = 'update_row_table_{id}';

  constructor(private readonly support: RowToolSupport) {}

  async list(endpoint: ActiveEndpoint): Promise<McpToolListing[]> {
    const tools: McpToolListing[] = [];
    for (const table of await this.support.allowed(endpoint, T.updateRow)) {
      tools.push({
        name: `update_row_table_${table.id}`,
        description: `Updates an existing row/record in table with id ${table.id}, named "${table.name}".`,
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'integer', description: 'The row/record ID that must be updated.' },
            row: await this.support.rowSchema(table, endpoint.endpoint.workspaceId),
          },
          required: ['id', 'row'],
        },
      });
    }
    return tools;
  }

  async call(endpoint: ActiveEndpoint, params: Record<string, string>, args: Record<string, unknown>): Promise<McpToolResult> {
    const tableId = tableIdOf(params.id);
    if (!(await this.support.tables.inWorkspace(endpoint, tableId))) return NOT_IN_WORKSPACE;
    checkArguments(args, { id: 'integer', row: 'object' }, ['id', 'row']);
    return text(JSON.stringify(await this.support.rows.update(endpoint.user, tableId, rowId(args.id as number), args.row, true)));
  }
}

/** `delete_table_row` (Baserow's `DeleteRowMcpTool`). */
@Injectable()
export class DeleteRowTool implements McpTool {
  readonly type = 'delete_table_row';
  readonly name = 'delete_table_row';

  constructor(private readonly support: RowToolSupport) {}

  async list(): Promise<McpToolListing[]> {
    return [
      {
        name: this.name,
        description: 'Delete an existing row/record from the table of the provided `table_id`.',
        inputSchema: {
          type: 'object',
          properties: {
            table_id: { type: 'integer', description: 'The ID of the table where to delete the row/record from.' },
            id: { type: 'integer', description: 'The ID of the row that must be deleted.' },
          },
          required: ['table_id', 'id'],
        },
      },
    ];
  }

  async call(endpoint: ActiveEndpoint, _params: Record<string, string>, args: Record<string, unknown>): Promise<McpToolResult> {
    checkArguments(args, { table_id: 'integer', id: 'integer' }, ['table_id', 'id']);
    const tableId = args.table_id as number;
    if (!(await this.support.tables.inWorkspace(endpoint, tableId))) return NOT_IN_WORKSPACE;
    await this.support.rows.delete(endpoint.user, tableId, rowId(args.id as number));
    return text('successfully deleted');
  }
}
