import { SetMetadata } from '@nestjs/common';

export const STREAMED_BODY = 'rowspace:streamed-body';

/**
 * The handler reads the request body itself, as a stream (file uploads): the app does not
 * buffer it (nor apply REQUEST_BODY_LIMIT_MB), and the handler enforces its own limit.
 */
export const StreamedBody = (): MethodDecorator => SetMetadata(STREAMED_BODY, true);
