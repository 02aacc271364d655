import { validationError } from '../../core/errors/api-error';
import { checkObject, FieldSpec } from '../../core/validation/field';
import type { FieldEntity } from '../../database/fields/field.entity';
import type { FieldRepository } from '../../database/fields/field.repository';
import { ViewFilterErrors } from './view-filter.errors';

/**
 * The body of a filter, sort or group-by checked as DRF does: the specs first, then a `field`
 * id naming no live field is `does_not_exist` (whose table it is in is the caller's rule).
 */
export async function checkFieldBody(
  fields: FieldRepository,
  specs: Record<string, FieldSpec>,
  body: Record<string, unknown>,
  partial: boolean,
): Promise<{ values: Record<string, unknown>; field: FieldEntity | null }> {
  const { values, errors } = checkObject(specs, body, { partial });
  if (Object.keys(errors).length) throw validationError(errors);
  let field: FieldEntity | null = null;
  if (values.field !== undefined) {
    field = await fields.findLive(values.field as number);
    if (!field) throw ViewFilterErrors.pkDoesNotExist('field', body.field);
  }
  return { values, field };
}
