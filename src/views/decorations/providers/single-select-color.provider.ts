import { Injectable } from '@nestjs/common';
import { validationError } from '../../../core/errors/api-error';
import { checkObject } from '../../../core/validation/field';
import type { FieldEntity } from '../../../database/fields/field.entity';
import { ConfContext, DecorationConf, DecoratorValueProviderType, IdMapping } from '../decorator-type';
import { DecorationErrors } from '../decorations.errors';

/** `single_select_color`: each row takes the colour of its option in a single select field (`{"field_id": int|null}`). */
@Injectable()
export class SingleSelectColorValueProviderType implements DecoratorValueProviderType {
  readonly type = 'single_select_color';
  readonly compatibleDecoratorTypes = ['left_border_color', 'background_color'];

  async validate(conf: unknown, ctx: ConfContext): Promise<DecorationConf> {
    const { values, errors } = checkObject({ field_id: { kind: 'int', nullable: true } }, conf as Record<string, unknown>);
    if (Object.keys(errors).length) throw validationError({ value_provider_conf: errors });
    const fieldId = values.field_id as number | null;
    if (fieldId !== null) {
      const field = await ctx.field(fieldId, ['value_provider_conf', 'field_id']);
      if (field.type !== 'single_select') throw DecorationErrors.incompatibleField();
    }
    return { field_id: fieldId };
  }

  mapIds(conf: DecorationConf, ids: IdMapping): DecorationConf {
    const fieldId = conf.field_id;
    return { ...conf, field_id: typeof fieldId === 'number' ? (ids.fields.get(fieldId) ?? null) : null };
  }

  afterFieldDeleted(conf: DecorationConf, fieldId: number): DecorationConf | null {
    return conf.field_id === fieldId ? { ...conf, field_id: null } : null;
  }

  afterFieldChanged(conf: DecorationConf, field: FieldEntity): DecorationConf | null {
    return conf.field_id === field.id && field.type !== 'single_select' ? { ...conf, field_id: null } : null;
  }
}
