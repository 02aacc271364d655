import { Injectable, Logger } from '@nestjs/common';
import { AuthService, TokenAnswer } from '../auth/auth.service';
import { toApiDateTime } from '../core/database/columns';
import { isUniqueViolation } from '../core/database/constraint-errors';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, PlainHttpError, validationError } from '../core/errors/api-error';
import { pageLinks } from '../core/http/pagination';
import { pythonTypeName } from '../core/validation/field';
import { inIdRange } from '../core/validation/ids';
import { PasswordHasher } from '../users/password-hasher';
import { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { normalizeEmail } from '../users/user.serializer';
import { AdminRepository, USER_SORTS } from './admin.repository';
import type { AdminCreateUserDto, AdminUpdateUserDto } from './admin.dto';
import { Page, pageWindow, parseSorts } from './listing';

/** Baserow's UserAdminResponseSerializer. */
export interface UserAdminJson {
  id: number;
  username: string;
  name: string;
  workspaces: { id: number; name: string; permissions: string }[];
  last_login: string | null;
  date_joined: string | null;
  is_active: boolean;
  is_staff: boolean;
}

export const AdminUserErrors = {
  cannotDeactivateSelf: () => new ApiError('USER_ADMIN_CANNOT_DEACTIVATE_SELF', 400, 'You cannot de-activate or un-staff yourself.'),
  cannotDeleteSelf: () => new ApiError('USER_ADMIN_CANNOT_DELETE_SELF', 400, 'You cannot delete yourself.'),
  unknownUser: () => new ApiError('USER_ADMIN_UNKNOWN_USER', 400, 'Unknown user supplied.'),
  alreadyExists: () => new ApiError('USER_ADMIN_ALREADY_EXISTS', 400, 'A user with that username/email already exists.'),
};

const WRITABLE_KEYS = ['username', 'name', 'is_active', 'is_staff', 'password'];

/** UnknownFieldRaisesExceptionSerializerMixin: keys the serializer does not know are refused. */
function refuseUnknownKeys(raw: unknown): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const unknown = Object.keys(raw).filter((key) => !WRITABLE_KEYS.includes(key));
  if (!unknown.length) return;
  throw validationError({
    non_field_errors: [
      {
        error: `Your request body had the following unknown attributes: ${unknown.join(', ')}. Please check the api documentation and only provide valid fields.`,
        code: 'invalid',
      },
    ],
  });
}

/**
 * The users of the instance as staff sees and changes them (Baserow's UserAdminHandler). Every
 * route is behind the staff guard; the rules about oneself are here.
 */
@Injectable()
export class AdminUsersService {
  private readonly logger = new Logger(AdminUsersService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: AdminRepository,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly auth: AuthService,
  ) {}

  async list(query: { search?: string; sorts?: string; page?: number; size?: number }, url: URL): Promise<Page<UserAdminJson>> {
    const sorts = parseSorts(query.sorts, USER_SORTS);
    const { page, size, offset } = pageWindow(query.page, query.size);
    const { count, users } = await this.repo.users(query.search, sorts, size, offset);
    return { count, ...pageLinks(url, page, size, count), results: await this.serialize(users) };
  }

  private async serialize(users: UserEntity[]): Promise<UserAdminJson[]> {
    const memberships = await this.repo.membershipsOfUsers(users.map((u) => u.id));
    return users.map((user) => ({
      id: user.id,
      username: user.email,
      name: user.firstName,
      workspaces: memberships.filter((m) => m.userId === user.id).map((m) => ({ id: m.workspaceId, name: m.name, permissions: m.permissions })),
      last_login: toApiDateTime(user.lastLogin),
      date_joined: toApiDateTime(user.dateJoined),
      is_active: user.isActive,
      is_staff: user.isStaff,
    }));
  }

  /** Creates an account even when sign-ups are off (no workspace, not verified), as Baserow's `force_create_user`. */
  async create(raw: unknown, input: AdminCreateUserDto): Promise<UserAdminJson> {
    refuseUnknownKeys(raw);
    const email = normalizeEmail(input.username);
    if (await this.users.findByEmail(email)) throw AdminUserErrors.alreadyExists();
    const passwordHash = await this.hasher.hash(input.password);
    const user = await this.db
      .run(() =>
        this.users.create({
          email,
          firstName: input.name,
          passwordHash,
          isStaff: input.is_staff,
          isActive: input.is_active,
          emailVerified: false,
          completedOnboarding: false,
          completedGuidedTours: [],
          dateJoined: new Date(),
        }),
      )
      .catch((error) => {
        throw isUniqueViolation(error) ? AdminUserErrors.alreadyExists() : error;
      });
    return (await this.serialize([user]))[0];
  }

  /**
   * Changes the given attributes. Nobody may deactivate or un-staff themselves (so the last
   * staff account stays). A new password or a deactivation ends the user's sessions at once on
   * every instance: tokens are checked against the user (a metadata cache invalidated
   * everywhere), and the sockets are closed through the broadcaster.
   */
  async update(actor: UserEntity, userId: number, raw: unknown, input: AdminUpdateUserDto): Promise<UserAdminJson> {
    refuseUnknownKeys(raw);
    if (userId === actor.id && (input.is_staff === false || input.is_active === false)) throw AdminUserErrors.cannotDeactivateSelf();
    const passwordHash = input.password !== undefined ? await this.hasher.hash(input.password) : undefined;
    const user = await this.db
      .run(async () => {
        const user = await this.users.findByIdForUpdate(userId);
        if (!user) throw AdminUserErrors.unknownUser();
        const values: Partial<UserEntity> = {};
        if (input.is_staff !== undefined) values.isStaff = input.is_staff;
        if (input.is_active !== undefined) values.isActive = input.is_active;
        if (input.name !== undefined) values.firstName = input.name;
        if (passwordHash !== undefined) Object.assign(values, { passwordHash, passwordChangedAt: new Date() });
        if (input.username !== undefined) {
          const email = normalizeEmail(input.username);
          if (email !== user.email && (await this.users.findByEmail(email))) throw AdminUserErrors.alreadyExists();
          values.email = email;
        }
        if (Object.keys(values).length) await this.users.update(user.id, values);
        if (passwordHash !== undefined) this.db.record('user.password_changed', { userId: user.id });
        if (user.isActive && values.isActive === false) this.db.record('user.deactivated', { userId: user.id });
        return Object.assign(user, values);
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? AdminUserErrors.alreadyExists() : error;
      });
    return (await this.serialize([user]))[0];
  }

  /**
   * Deletes the account for good, as Baserow's admin delete: its memberships, tokens and jobs go
   * with it (foreign keys), what it authored stays without an author, and its workspaces stay
   * (also those it was the last member of). Its sockets are closed; it is not mailed.
   */
  async delete(actor: UserEntity, userId: number): Promise<void> {
    if (userId === actor.id) throw AdminUserErrors.cannotDeleteSelf();
    await this.db.run(async () => {
      const user = await this.users.findByIdForUpdate(userId);
      if (!user) throw AdminUserErrors.unknownUser();
      const workspaceIds = (await this.repo.membershipsOfUsers([user.id])).map((m) => m.workspaceId);
      await this.users.delete(user.id);
      this.db.record('user.permanently_deleted', {
        userId: user.id,
        workspaceIds,
        deletedWorkspaceIds: [],
        account: { email: user.email, firstName: user.firstName, language: user.language },
        byAdmin: true,
      });
    });
  }

  /**
   * The token-auth answer of another user (Baserow's impersonation): not of a staff account,
   * so not of oneself. The body is checked as DRF's PrimaryKeyRelatedField does, with DRF's
   * own error shape (Baserow validates it outside its envelope).
   */
  async impersonate(actor: UserEntity, body: unknown): Promise<TokenAnswer> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new PlainHttpError(400, { non_field_errors: [body === null || body === undefined ? 'No data provided' : `Invalid data. Expected a dictionary, but got ${pythonTypeName(body)}.`] });
    }
    const value = (body as { user?: unknown }).user;
    const fail = (message: string) => new PlainHttpError(400, { user: [message] });
    if (value === undefined) throw fail('This field is required.');
    if (value === null) throw fail('This field may not be null.');
    const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (typeof value === 'boolean' || !Number.isSafeInteger(id)) throw fail(`Incorrect type. Expected pk value, received ${pythonTypeName(value)}.`);
    // An id beyond the column's range names nobody (Django's lookup finds nothing).
    const user = inIdRange(id) ? await this.users.findById(id) : null;
    if (!user || user.isStaff) throw fail(`Invalid pk "${String(value)}" - object does not exist.`);
    this.logger.log(`${actor.email} (${actor.id}) requested an impersonate token for ${user.email} (${user.id}).`);
    return this.auth.tokenAnswer(user, false);
  }
}
