import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { getMetadataStorage, validateSync } from 'class-validator';
import { ErrorTree, queryValidationError, validationError } from '../errors/api-error';
import { dynamicQueries } from './dynamic-query';
import { bodyObjectError, checkValue, FieldSpec, fieldSpecs } from './field';

/**
 * Validates `@Body()` and `@Query()` DTOs declared with `@Field`, producing Baserow's
 * detail tree. Unknown keys are dropped, as DRF serializers do, except the query keys a
 * `@DynamicQuery` declares. Query values are read as Baserow reads `request.GET.dict()`: a
 * repeated parameter gives its last value, an empty one is validated as it is.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const metatype = metadata.metatype;
    if (!metatype || (metadata.type !== 'body' && metadata.type !== 'query')) return value;
    const specs = fieldSpecs(metatype) ?? (dynamicQueries(metatype).length ? new Map() : undefined);
    if (!specs) return value;
    const fail = metadata.type === 'query' ? queryValidationError : validationError;
    const notAnObject = bodyObjectError(value);
    if (notAnObject) throw fail(notAnObject);
    const source = (value ?? {}) as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const [key, spec] of specs) {
      if (!Object.prototype.hasOwnProperty.call(source, key)) continue;
      let item = source[key];
      if (metadata.type === 'query') {
        // A repeated parameter: DRF's QueryDict answers its last value.
        if (Array.isArray(item) && spec.kind !== 'list') item = item[item.length - 1];
      }
      plain[key] = item;
    }
    const dynamic: Record<string, unknown> = {};
    if (metadata.type === 'query') {
      const patterns = dynamicQueries(metatype);
      for (const [key, value] of Object.entries(source)) {
        if (specs.has(key)) continue;
        const declared = patterns.find((p) => p.pattern.test(key));
        if (declared) dynamic[key] = value;
        else {
          const refusal = patterns.find((p) => p.refuseOthers)?.refuseOthers;
          if (refusal) throw fail({ [key]: [refusal] });
        }
      }
    }
    // The DTO instance holds what the client sent, not a deep copy (bodies may carry 100,000 rows);
    // the `@Field` checks store their coerced values on it.
    const create = () => Object.assign(Object.create(metatype.prototype as object) as Record<string, unknown>, plain);
    const valid = checkFields(create(), metatype, specs);
    if (valid) return Object.assign(valid, dynamic);
    const instance = create();
    const errors = validateSync(instance, { forbidUnknownValues: false });
    if (errors.length) {
      const tree: ErrorTree = {};
      for (const error of errors) {
        const message = Object.values(error.constraints ?? {})[0];
        if (message) tree[error.property] = JSON.parse(message);
      }
      throw fail(tree);
    }
    return Object.assign(instance, dynamic);
  }
}

/** Per DTO class: its fields in class-validator's order, or null when its checks are not only `@Field`'s, one each. */
const plans = new WeakMap<Function, string[] | null>();

function planOf(metatype: Function, specs: Map<string, FieldSpec>): string[] | null {
  let plan = plans.get(metatype);
  if (plan !== undefined) return plan;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, undefined as unknown as string, false, false, undefined);
  const keys = metadatas.map((metadata) => metadata.propertyName);
  const simple =
    metadatas.every((metadata) => metadata.name === 'rowspaceField') && new Set(keys).size === keys.length && keys.length === specs.size && keys.every((key) => specs.has(key));
  plan = simple ? keys : null;
  plans.set(metatype, plan);
  return plan;
}

/**
 * What `validateSync` does with the `@Field` checks of a valid DTO (coerced values and defaults
 * stored on the instance, in the same order), without class-validator's per-call metadata
 * lookups. Null when a value is refused (or the class has other checks): class-validator then
 * runs on a fresh instance and builds the error tree as always.
 */
function checkFields(instance: Record<string, unknown>, metatype: Function, specs: Map<string, FieldSpec>): Record<string, unknown> | null {
  const plan = planOf(metatype, specs);
  if (!plan) return null;
  for (const key of plan) {
    const spec = specs.get(key)!;
    const value = instance[key];
    if (value === undefined) {
      if (spec.required !== false) return null;
      if (spec.default !== undefined) instance[key] = structuredClone(spec.default);
      continue;
    }
    const result = checkValue(spec, value);
    if (!('value' in result)) return null;
    instance[key] = result.value;
  }
  return instance;
}
