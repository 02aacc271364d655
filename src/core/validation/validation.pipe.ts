import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ErrorTree, queryValidationError, validationError } from '../errors/api-error';
import { bodyObjectError, fieldSpecs } from './field';

/**
 * Validates `@Body()` and `@Query()` DTOs declared with `@Field`, producing Baserow's
 * detail tree. Unknown keys are dropped, as DRF serializers do.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const metatype = metadata.metatype;
    if (!metatype || (metadata.type !== 'body' && metadata.type !== 'query')) return value;
    const specs = fieldSpecs(metatype);
    if (!specs) return value;
    const fail = metadata.type === 'query' ? queryValidationError : validationError;
    const notAnObject = bodyObjectError(value);
    if (notAnObject) throw fail(notAnObject);
    const source = (value ?? {}) as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const key of specs.keys()) if (Object.prototype.hasOwnProperty.call(source, key)) plain[key] = source[key];
    const instance = plainToInstance(metatype, plain, { enableImplicitConversion: false }) as Record<string, unknown>;
    // class-transformer may fill property initializers; only what the client sent counts.
    for (const key of specs.keys()) if (!(key in plain)) delete instance[key];
    const errors = validateSync(instance, { forbidUnknownValues: false });
    if (errors.length) {
      const tree: ErrorTree = {};
      for (const error of errors) {
        const message = Object.values(error.constraints ?? {})[0];
        if (message) tree[error.property] = JSON.parse(message);
      }
      throw fail(tree);
    }
    return instance;
  }
}
