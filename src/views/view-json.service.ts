import { Injectable } from '@nestjs/common';
import type { TableContext } from '../database/table-context';
import type { TableEntity } from '../database/table.entity';
import { DecorationCopier } from './decorations/decoration-copier';
import type { DecorationJson } from './decorations/decoration.entity';
import { ViewSelectionService } from './filters/view-selection.service';
import { ViewAccessService } from './view-access.service';
import type { ViewEntity } from './view.entity';
import { ViewRepository } from './view.repository';
import { specDefaults, ViewTypeRegistry } from './view-type';

export type ViewJson = Record<string, unknown>;
/** A view's sub-object lists by their JSON key (`filters`, `filter_groups`, `sortings`, `group_bys`, `decorations`). */
export type ViewParts = Record<string, unknown>;

/** `?include=filters,sortings,decorations,group_bys`: which sub-object lists the view JSON carries. */
export interface ViewIncludes {
  filters: boolean;
  sortings: boolean;
  decorations: boolean;
  groupBys: boolean;
}

export const NO_INCLUDES: ViewIncludes = { filters: false, sortings: false, decorations: false, groupBys: false };
export const ALL_INCLUDES: ViewIncludes = { filters: true, sortings: true, decorations: true, groupBys: true };

export function parseIncludes(value: unknown): ViewIncludes {
  const names = new Set(
    String(value ?? '')
      .split(',')
      .map((n) => n.trim()),
  );
  return { filters: names.has('filters'), sortings: names.has('sortings'), decorations: names.has('decorations'), groupBys: names.has('group_bys') };
}

/** Views as Baserow's ViewSerializer answers them, with the sub-object lists asked for. */
@Injectable()
export class ViewJsonService {
  constructor(
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly access: ViewAccessService,
    private readonly decorations: DecorationCopier,
    private readonly parts: ViewSelectionService,
  ) {}

  /** Baserow's ViewSerializer keys in order, the type's keys, then `public`/`slug` for shareable types. */
  serialize(view: ViewEntity, table: TableEntity, includes: ViewIncludes, parts: ViewParts = {}, userId: number | null = null): ViewJson {
    const type = this.types.of(view);
    const json: ViewJson = {
      id: view.id,
      table_id: view.tableId,
      name: view.name,
      order: view.order,
      type: view.type,
      table: { id: table.id, name: table.name, order: table.order, database_id: table.databaseId },
      filter_type: view.filterType,
    };
    // `parts`: the sub-object lists `serializeAll` read (none for a view just created).
    if (includes.filters) {
      json.filters = parts.filters ?? [];
      json.filter_groups = parts.filter_groups ?? [];
    }
    if (includes.sortings) json.sortings = parts.sortings ?? [];
    if (includes.groupBys) json.group_bys = parts.group_bys ?? [];
    if (includes.decorations) json.decorations = parts.decorations ?? [];
    Object.assign(json, {
      filters_disabled: view.filtersDisabled,
      public_view_has_password: !!view.passwordHash,
      show_logo: view.showLogo,
      allow_public_export: view.allowPublicExport,
      ownership_type: view.ownershipType,
      owned_by_id: view.ownedById,
    });
    const defaults = specDefaults(type.properties);
    const properties: Record<string, unknown> = {};
    for (const key of Object.keys(type.properties)) properties[key] = view.properties[key] ?? defaults[key];
    Object.assign(json, type.serializeProperties ? type.serializeProperties(properties, userId, view) : properties);
    if (type.canShare) {
      json.public = view.public;
      json.slug = view.slug;
    }
    return json;
  }

  /** Views of one table as JSON, with the sub-object lists `includes` asks for (those on trashed fields hidden). */
  async serializeAll(views: ViewEntity[], context: TableContext, includes: ViewIncludes, userId: number | null = null): Promise<ViewJson[]> {
    const decorations = includes.decorations ? await this.decorations.jsonOf(views.map((v) => v.id)) : new Map<number, DecorationJson[]>();
    return Promise.all(
      views.map(async (view) => {
        const parts: ViewParts = { ...(await this.parts.includes(view, context, includes)), decorations: decorations.get(view.id) ?? [] };
        return this.serialize(view, context.table, includes, parts, userId);
      }),
    );
  }

  /** The JSON of a live view as anyone sees it right now (for messages sent after commit); null when gone. */
  async viewJson(viewId: number, includes: ViewIncludes): Promise<ViewJson | null> {
    const view = await this.repo.findLive(viewId);
    if (!view) return null;
    const access = await this.access.systemAccess(view);
    return access ? (await this.serializeAll([view], access.context, includes))[0] : null;
  }
}
