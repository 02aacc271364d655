import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../database/fields/field.entity';
import type { TableContext } from '../database/table-context';
import type { ViewEntity } from './view.entity';
import type { FieldOptionsJson } from './view-field-options.service';
import { ViewTypeRegistry } from './view-type';
import { ViewsService } from './views.service';

/**
 * The fields a view shows (Baserow's `get_visible_field_options_in_order`): those whose field
 * options are not hidden, and those the view needs whatever their options say (a kanban's
 * single select, a cover image), by option order then id. Types without a `hidden` option
 * show every field. Shared views show only these; a grid's footer aggregates only these.
 */
@Injectable()
export class ViewVisibleFields {
  constructor(
    private readonly views: ViewsService,
    private readonly types: ViewTypeRegistry,
  ) {}

  async of(view: ViewEntity, context: TableContext): Promise<FieldEntity[]> {
    const type = this.types.of(view);
    if (!type.fieldOptions || !('hidden' in type.fieldOptions)) return context.fields;
    return this.inOptions(view, context, await this.views.fieldOptions(view, context));
  }

  /** The same from field options the caller has already read (`ViewsService.fieldOptions`). */
  inOptions(view: ViewEntity, context: TableContext, options: FieldOptionsJson): FieldEntity[] {
    const type = this.types.of(view);
    if (!type.fieldOptions || !('hidden' in type.fieldOptions)) return context.fields;
    const needed = new Set(type.neededFields?.(view) ?? []);
    const order = (field: FieldEntity): number => Number(options[String(field.id)]?.order ?? 32767);
    return context.fields
      .filter((field) => options[String(field.id)]?.hidden === false || needed.has(field.id))
      .sort((a, b) => order(a) - order(b) || a.id - b.id);
  }
}
