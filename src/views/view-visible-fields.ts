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
 * show every field; a form shows its enabled fields. Shared views show only these; a grid's footer aggregates only these.
 */
@Injectable()
export class ViewVisibleFields {
  constructor(
    private readonly views: ViewsService,
    private readonly types: ViewTypeRegistry,
  ) {}

  async of(view: ViewEntity, context: TableContext): Promise<FieldEntity[]> {
    if (!shownBy(this.types.of(view).fieldOptions)) return context.fields;
    return this.inOptions(view, context, await this.views.fieldOptions(view, context));
  }

  /** The same from field options the caller has already read (`ViewsService.fieldOptions`). */
  inOptions(view: ViewEntity, context: TableContext, options: FieldOptionsJson): FieldEntity[] {
    const type = this.types.of(view);
    const shown = shownBy(type.fieldOptions);
    if (!shown) return context.fields;
    const needed = new Set(type.neededFields?.(view) ?? []);
    const order = (field: FieldEntity): number => Number(options[String(field.id)]?.order ?? 32767);
    return context.fields
      .filter((field) => shown(options[String(field.id)]) || needed.has(field.id))
      .sort((a, b) => order(a) - order(b) || a.id - b.id);
  }
}

/** Whether a field's options show it: not `hidden` (grid, gallery, kanban), or `enabled` (a form); null when the type shows every field. */
function shownBy(fieldOptions: Readonly<Record<string, unknown>> | null): ((options: Record<string, unknown> | undefined) => boolean) | null {
  if (fieldOptions && 'hidden' in fieldOptions) return (options) => options?.hidden === false;
  if (fieldOptions && 'enabled' in fieldOptions) return (options) => options?.enabled === true;
  return null;
}
