import { Injectable } from '@nestjs/common';
import type { TableContext } from '../../database/table-context';
import { decorationJson, DecorationJson } from './decoration.entity';
import { ViewDecorationRepository } from './decoration.repository';
import { DecoratorValueProviderTypeRegistry, IdMapping } from './decorator-type';

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

  /** Copies a view's decorations to another (inside the caller's unit of work); `ids` maps a duplicated table's fields and options. */
  async copy(fromViewId: number, toViewId: number, ids?: IdMapping): Promise<void> {
    for (const decoration of await this.repo.ofViews([fromViewId])) {
      const provider = this.providers.get(decoration.valueProviderType);
      const conf = structuredClone(decoration.valueProviderConf);
      await this.repo.create({
        viewId: toViewId,
        type: decoration.type,
        valueProviderType: decoration.valueProviderType,
        valueProviderConf: ids && provider ? provider.mapIds(conf, ids) : conf,
        order: decoration.order,
      });
    }
  }
}

/** Old select option id → the copy's, matched by position within each mapped field. */
export function selectOptionMapping(original: TableContext, copy: TableContext, fields: Map<number, number>): Map<number, number> {
  const mapping = new Map<number, number>();
  const sorted = <T extends { order: number; id: number }>(list: T[] = []) => [...list].sort((a, b) => a.order - b.order || a.id - b.id);
  for (const [from, to] of fields) {
    const before = sorted(original.selectOptions.get(from));
    const after = sorted(copy.selectOptions.get(to));
    before.forEach((option, index) => {
      if (after[index]) mapping.set(option.id, after[index].id);
    });
  }
  return mapping;
}
