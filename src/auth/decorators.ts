import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { UserEntity } from '../users/user.entity';

export const PUBLIC_ROUTE = 'rowspace:public';

/** The route needs no credentials (sign-up, token-auth, settings...). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The authenticated user of the request. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): UserEntity => {
  return context.switchToHttp().getRequest().user;
});
