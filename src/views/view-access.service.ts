import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { Errors } from '../core/errors/api-error';
import { OperationType, PermissionService, ViewOperations as V } from '../permissions';
import { TableContext, TableContextService, tableScope } from '../database/table-context';
import { PublicViewTokens } from './public-view-tokens';
import { ViewEntity } from './view.entity';
import { ViewRepository } from './view.repository';
import { ViewTypeRegistry } from './view-type';
import { ViewErrors } from './views.errors';
import { isPersonal, operationOnView } from './view-ownership';

/** Who opens a view by its slug: a user (JWT) or nobody, with the view's password token if any. */
export interface SlugCaller {
  userId: number | null;
  token: string | null;
}

/** A view a member may use, with its table's context. */
export interface ViewAccess {
  view: ViewEntity;
  context: TableContext;
}

/**
 * Who may use a view: a member of its workspace by id, anyone by slug when it is shared (and
 * its password opened). Live views are cached by id and by slug, as every view request reads them.
 */
@Injectable()
export class ViewAccessService {
  constructor(
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly contexts: TableContextService,
    private readonly publicTokens: PublicViewTokens,
    private readonly permissions: PermissionService,
    caches: Caches,
  ) {
    this.live = caches.metadata<string, ViewEntity | null>('live-views');
  }

  /** Live views by id (`id:<n>`) and by slug (`slug:<s>`), as every view request reads them. */
  private readonly live: MetadataCache<string, ViewEntity | null>;

  /** A copy of the cached live view (callers may change what they got before saving it). */
  private async findLive(key: string, read: () => Promise<ViewEntity | null>): Promise<ViewEntity | null> {
    const view = await this.live.get(key, read);
    return view && Object.assign(new ViewEntity(), view);
  }

  /**
   * A live view, when the user may do `operation` on it (or on an object in it): 404 when it (or
   * its table, database, workspace) is gone, else the permission check's answer.
   */
  async require(viewId: number, userId: number, operation: OperationType, notFound = ViewErrors.viewDoesNotExist): Promise<ViewAccess> {
    const view = await this.findLive(`id:${viewId}`, () => this.repo.findLive(viewId));
    if (!view) throw notFound();
    const access = await this.contexts.access(view.tableId, userId);
    if (!access) throw notFound();
    const checked = operationOnView(view, userId, operation);
    if (!checked) {
      // Someone else's personal view: Baserow's view_ownership manager refuses it (PERMISSION_DENIED)
      // to a member; a stranger is told they are not in the workspace first, as for any view.
      await this.permissions.require(userId, operation, tableScope(access.table, access.workspaceId));
      throw Errors.permissionDenied();
    }
    await this.permissions.require(userId, checked, tableScope(access.table, access.workspaceId));
    return { view, context: await this.contexts.withFields(access.table, access.workspaceId) };
  }

  /**
   * The view with this slug for a caller (a user or nobody, with the view's password token if
   * any): members who may read it always; anyone else only when it is public and shareable
   * (`notFound` otherwise, as if it did not exist), and `passwordRequired` when it has a
   * password the caller's token does not open (unless `checkPassword` is false).
   */
  async requireBySlug(
    slug: string,
    caller: SlugCaller,
    errors: { notFound: () => Error; passwordRequired: () => Error; type?: string; checkPassword?: boolean },
  ): Promise<ViewAccess & { isMember: boolean }> {
    const view = slug.length <= 64 && !slug.includes('\0') ? await this.findLive(`slug:${slug}`, () => this.repo.findLiveBySlug(slug)) : null;
    if (!view || (errors.type !== undefined && view.type !== errors.type)) throw errors.notFound();
    const access = await this.contexts.access(view.tableId, caller.userId ?? 0);
    if (!access) throw errors.notFound();
    const scope = tableScope(access.table, access.workspaceId);
    const readAs = caller.userId === null ? null : operationOnView(view, caller.userId, V.read);
    const isMember = caller.userId !== null && readAs !== null && (await this.permissions.can(caller.userId, readAs, scope));
    if (!isMember) {
      if (!view.public || !this.types.of(view).canShare) throw errors.notFound();
      // A shared personal view stops working once its owner may no longer share views of the table.
      if (isPersonal(view) && (view.ownedById === null || !(await this.permissions.can(view.ownedById, V.createPublic, scope)))) throw errors.notFound();
      if (errors.checkPassword !== false && view.passwordHash && !this.publicTokens.isValid(view, caller.token)) throw errors.passwordRequired();
    }
    return { view, context: await this.contexts.withFields(access.table, access.workspaceId), isMember };
  }

  /** Whether the user sees the view in lists (a personal view: only its owner, while they may use personal views). */
  async visibleTo(view: ViewEntity, userId: number, context: TableContext): Promise<boolean> {
    if (!isPersonal(view)) return true;
    return view.ownedById === userId && this.permissions.can(userId, V.createAndUsePersonalView, tableScope(context.table, context.workspaceId));
  }

  /** A live view's table context without a member check (for messages built after commit); null when the table is gone. */
  async systemAccess(view: ViewEntity): Promise<ViewAccess | null> {
    const access = await this.contexts.access(view.tableId, 0);
    return access ? { view, context: await this.contexts.withFields(access.table, access.workspaceId) } : null;
  }
}
