import { INestApplication, SetMetadata } from '@nestjs/common';
import type { SchemaObject } from './schemas';

/** A schema, or one built when the document is (from providers such as the field type registry). */
export type SchemaSource = SchemaObject | ((app: INestApplication) => SchemaObject);

export const OPENAPI_BODY = 'rowspace:openapi-body';
export const OPENAPI_ANSWER = 'rowspace:openapi-answer';
/** The media type of a `RequestBody` (JSON unless a handler reads something else, e.g. multipart uploads). */
export const OPENAPI_BODY_CONTENT_TYPE = 'rowspace:openapi-body-content-type';

export interface AnswerSpec {
  schema: SchemaSource;
  contentType?: string;
  description?: string;
}

/**
 * The request body of a handler that reads `@Body()` without a `@Field` DTO (its checks live in
 * the service, e.g. row values or a field type's properties). DTO bodies document themselves.
 */
export const RequestBody = (schema: SchemaSource, options: { contentType?: string } = {}): MethodDecorator => {
  const body = SetMetadata(OPENAPI_BODY, schema);
  const type = SetMetadata(OPENAPI_BODY_CONTENT_TYPE, options.contentType ?? 'application/json');
  return (target, key, descriptor) => {
    body(target, key, descriptor);
    type(target, key, descriptor);
  };
};

/**
 * The success answer's schema; its status is the handler's `@HttpCode` (204: no body).
 * The error answers (envelope) are added for every route from what it accepts.
 */
export const Answer = (schema: SchemaSource, options: Omit<AnswerSpec, 'schema'> = {}): MethodDecorator => SetMetadata(OPENAPI_ANSWER, { schema, ...options });

export const OPENAPI_MULTIPART_BODY = 'rowspace:openapi-multipart-body';

/** A `multipart/form-data` variant of the route's (JSON) request body, documented beside it. */
export const MultipartBody = (schema: SchemaSource): MethodDecorator => SetMetadata(OPENAPI_MULTIPART_BODY, schema);
