import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { ErrorTree, queryValidationError, validationError } from '../errors/api-error';
import { dynamicQueries } from './dynamic-query';
import { bodyObjectError, fieldSpecs } from './field';

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
    const instance = Object.assign(Object.create(metatype.prototype as object) as Record<string, unknown>, plain);
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
