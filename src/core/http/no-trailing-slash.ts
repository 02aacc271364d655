import { SetMetadata } from '@nestjs/common';

export const NO_TRAILING_SLASH = 'rowspace:no-trailing-slash';

/**
 * The route's URL ends without `/`, as a few of Baserow's do (premium's
 * `PATCH /api/database/view/{view_id}/premium`); every other API URL ends with one.
 */
export const NoTrailingSlash = (): MethodDecorator => SetMetadata(NO_TRAILING_SLASH, true);
