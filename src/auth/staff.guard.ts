import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import { Errors } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';

/**
 * DRF's IsAdminUser: after authentication (the global guard), before the body is validated,
 * a user who is not staff is refused with 403 `{"detail"}`.
 */
@Injectable()
export class StaffGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.switchToHttp().getRequest<{ user?: UserEntity }>().user;
    if (!user?.isStaff) throw Errors.notStaff();
    return true;
  }
}

/** The route (or every route of a controller) is for staff only. */
export const StaffOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(StaffGuard), ApiForbiddenResponse({ description: 'The user is not staff: `{"detail": "You do not have permission to perform this action."}`.' }));
