import { Injectable } from '@nestjs/common';
import { decorationJson, DecorationJson } from './decoration.entity';
import { ViewDecorationRepository } from './decoration.repository';
import { DecoratorValueProviderTypeRegistry } from './decorator-type';
import type { ImportIds, ViewDocument } from '../../database/serialization/database-document';

/** What the views service needs of decorations: their JSON for `include=decorations` and copies for duplication. */
@Injectable()
export class DecorationCopier {
  constructor(
    private readonly repo: ViewDecorationRepository,
    private readonly providers: DecoratorValueProviderTypeRegistry,
  ) {}

  /** The decorations of each view, by order then id. */
  async jsonOf(viewIds: number[]): Promise<Map<number, DecorationJson[]>> {
    const result = new Map<number, DecorationJson[]>(viewIds.map((id) => [id, []]));
    for (const decoration of await this.repo.ofViews(viewIds)) result.get(decoration.viewId)!.push(decorationJson(decoration));
    return result;
  }

  /** Copies a view's decorations to another of the same table (inside the caller's unit of work). */
  async copy(fromViewId: number, toViewId: number): Promise<void> {
    for (const decoration of await this.repo.ofViews([fromViewId])) {
      await this.repo.create({ viewId: toViewId, type: decoration.type, valueProviderType: decoration.valueProviderType, valueProviderConf: structuredClone(decoration.valueProviderConf), order: decoration.order });
    }
  }

  /** A view's decorations as a serialized view keeps them. */
  async exportOf(viewId: number): Promise<NonNullable<ViewDocument['decorations']>> {
    return (await this.repo.ofViews([viewId])).map((d) => ({ type: d.type, value_provider_type: d.valueProviderType, value_provider_conf: structuredClone(d.valueProviderConf), order: d.order }));
  }

  /** Creates a serialized view's decorations, their fields and options mapped by their value provider type. */
  async importInto(viewId: number, decorations: NonNullable<ViewDocument['decorations']>, ids: ImportIds): Promise<void> {
    for (const decoration of decorations) {
      const provider = this.providers.get(decoration.value_provider_type);
      const conf = structuredClone(decoration.value_provider_conf ?? {});
      await this.repo.create({
        viewId,
        type: decoration.type,
        valueProviderType: decoration.value_provider_type ?? '',
        valueProviderConf: provider ? provider.mapIds(conf, { fields: ids.fields, selectOptions: ids.selectOptions }) : conf,
        order: decoration.order ?? 32767,
      });
    }
  }
}
