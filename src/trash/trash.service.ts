import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApplicationOperations as A, OperationType, PermissionService, WorkspaceOperations as W } from '../permissions';
import { Cron, CronExpression } from '@nestjs/schedule';
import { EntityTarget, ObjectLiteral } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, Errors, validationError } from '../core/errors/api-error';
import { pageLinks } from '../core/http/pagination';
import { bodyObjectError, checkObject, FieldSpec } from '../core/validation/field';
import type { UserEntity } from '../users/user.entity';
import { TrashEntryEntity } from './trash-entry.entity';
import { TrashErrors } from './trash.errors';
import { TrashRepository } from './trash.repository';
import { TrashTypeRegistry } from './trash-type';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';

/** What a delete records about the item it moved to the trash. */
export interface NewTrashEntry {
  type: string;
  itemId: number;
  /** The table of a row (or of a batch of rows). */
  parentId?: number | null;
  workspaceId: number;
  applicationId: number | null;
  name: string;
  names?: string[] | null;
  parentName: string | null;
  /** Only this user may see and restore it (a row comment's author). */
  ownerId?: number | null;
  /** Items trashed with it that come back with it, by trash type. */
  relatedItems?: Record<string, number[]>;
}

export interface TrashEntryJson {
  id: number;
  user_who_trashed: string | null;
  trash_item_type: string;
  trash_item_id: number;
  parent_trash_item_id: number | null;
  trashed_at: string | null;
  application: number | null;
  workspace: number;
  name: string;
  names: string[] | null;
  parent_name: string | null;
}

export interface TrashStructureJson {
  workspaces: { id: number; trashed: boolean; name: string; applications: { id: number; name: string; trashed: boolean; type: string }[] }[];
}

export interface TrashPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: TrashEntryJson[];
}

/**
 * The trash (Baserow's TrashHandler): deletes record an entry here and flag their item
 * `trashed`; a restore hands the entry to its type; entries past the retention period, or
 * of an emptied trash, are deleted for good one at a time.
 */
@Injectable()
export class TrashService {
  private readonly logger = new Logger(TrashService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: TrashRepository,
    private readonly types: TrashTypeRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly permissions: PermissionService,
    private readonly actions: ActionLog,
  ) {}

  // ------------------------------------------------------------------ trashing (called by the modules' deletes)

  /**
   * Flags one item of a metadata table `trashed` and records its entry, in the caller's unit
   * of work. When another delete flagged it first: ERROR_CANNOT_DELETE_ALREADY_DELETED_ITEM.
   */
  async trashItem<E extends ObjectLiteral>(entity: EntityTarget<E>, user: Pick<UserEntity, 'id'> | null, entry: NewTrashEntry): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.repo.setTrashed(entity, entry.itemId, true))) throw TrashErrors.alreadyDeleted();
      await this.record(user, entry);
    });
  }

  /** Records the entry of an item its module flagged itself (rows in their user table). */
  async record(user: Pick<UserEntity, 'id'> | null, entry: NewTrashEntry): Promise<TrashEntryEntity> {
    return this.db.run(() =>
      this.repo.createEntry({
        trashItemType: entry.type,
        trashItemId: entry.itemId,
        parentTrashItemId: entry.parentId ?? null,
        workspaceId: entry.workspaceId,
        applicationId: entry.applicationId,
        userWhoTrashedId: user?.id ?? null,
        trashItemOwnerId: entry.ownerId ?? null,
        trashedAt: new Date(),
        name: truncate(entry.name),
        names: entry.names ?? null,
        parentName: entry.parentName === null ? null : truncate(entry.parentName),
        relatedItems: entry.relatedItems ?? {},
        shouldBePermanentlyDeleted: false,
      }),
    );
  }

  /** Clears `trashed` on a restored item of a metadata table (for the types' `restore`). */
  async untrashItem<E extends ObjectLiteral>(entity: EntityTarget<E>, id: number): Promise<void> {
    if (!(await this.repo.setTrashed(entity, id, false))) throw TrashErrors.itemDoesNotExist();
  }

  /** Whether items have entries of their own (trashed alone before their parent was). */
  trashedOnTheirOwn(type: string, itemIds: number[]): Promise<Set<number>> {
    return this.repo.hasEntry(type, itemIds);
  }

  /** The row ids of batch deletes (`rows` entries name one of these). */
  saveTrashedRows(tableId: number, rowIds: number[]) {
    return this.repo.saveTrashedRows(tableId, rowIds);
  }

  findTrashedRows(id: number) {
    return this.repo.findTrashedRows(id);
  }

  deleteTrashedRows(id: number) {
    return this.repo.deleteTrashedRows(id);
  }

  /** Forgets the entries of a workspace or application deleted for good. */
  forgetEntriesOf(scope: { workspaceId: number } | { applicationId: number }): Promise<void> {
    return this.db.run(() => this.repo.deleteEntriesOf(scope));
  }

  // ------------------------------------------------------------------ the API

  /** `GET /api/trash/`: the user's workspaces and their applications, trashed ones included. */
  /** Of these trashed items of a type, the ones with no trash entry of their own (a long write's hidden builds). */
  async withoutEntry(type: 'table' | 'application', ids: number[]): Promise<number[]> {
    const entries = await this.repo.hasEntry(type, ids);
    return ids.filter((id) => !entries.has(id));
  }

  /**
   * Whether an application is one a long write (a duplication, a template install) is building:
   * flagged trashed with no trash entry of its own. It shows nowhere, the trash included.
   */
  private async isHidden(application: { id: number; trashed: boolean }): Promise<boolean> {
    return application.trashed && !(await this.repo.hasEntry('application', [application.id])).size;
  }

  async structure(user: UserEntity): Promise<TrashStructureJson> {
    const workspaces: TrashStructureJson['workspaces'] = [];
    const all = await this.repo.workspacesOfUser(user.id);
    const applications = await this.repo.applicationsOf(all.map((w) => w.id));
    for (const workspace of all) {
      if (await this.repo.isMarked('workspace', workspace.id)) continue;
      // Baserow's get_trash_structure: the workspaces whose trash the user may read, and in them the databases whose trash they may read.
      const reader = await this.permissions.reader(user.id, workspace.id);
      if (!reader.can(W.readTrash, { workspaceId: workspace.id })) continue;
      const items: TrashStructureJson['workspaces'][number]['applications'] = [];
      for (const application of applications.filter((a) => a.workspaceId === workspace.id)) {
        if (!reader.can(A.readTrash, { workspaceId: workspace.id, applicationId: application.id })) continue;
        if ((await this.repo.isMarked('application', application.id)) || (await this.isHidden(application))) continue;
        items.push({ id: application.id, name: application.name, trashed: application.trashed, type: application.type });
      }
      workspaces.push({ id: workspace.id, trashed: workspace.trashed, name: workspace.name, applications: items });
    }
    return { workspaces };
  }

  /** `GET /api/trash/workspace/{id}/`: a page of what the user may restore there, newest first. */
  async contents(user: UserEntity, workspaceId: number, applicationId: number | null, page: number, size: number, url: URL): Promise<TrashPage> {
    if (size > this.config.trashPageSizeLimit) throw new ApiError('ERROR_PAGE_SIZE_LIMIT', 400, `The page size is limited to ${this.config.trashPageSizeLimit}.`);
    await this.requireScope(user, workspaceId, applicationId, applicationId === null ? W.readTrash : A.readTrash);
    // What lives in a table the user may not read is not listed (its names would show).
    const hidden = {
      tableIds: await this.permissions.unreadableTables(user.id, workspaceId),
      inTables: this.types.all().flatMap((type) => (type.inTablesSql ? [{ type: type.type, sql: type.inTablesSql }] : [])),
    };
    const { count, rows } = await this.repo.page(workspaceId, applicationId, user.id, size, (page - 1) * size, hidden);
    return {
      count,
      ...pageLinks(url, page, size, count),
      results: rows.map(({ entry, userWhoTrashed }) => ({
        id: entry.id,
        user_who_trashed: userWhoTrashed,
        trash_item_type: entry.trashItemType,
        trash_item_id: entry.trashItemId,
        parent_trash_item_id: entry.parentTrashItemId,
        trashed_at: toApiDateTime(entry.trashedAt),
        application: entry.applicationId,
        workspace: entry.workspaceId,
        name: entry.name,
        names: entry.names,
        parent_name: entry.parentName,
      })),
    };
  }

  /** `DELETE /api/trash/workspace/{id}/`: everything in it (the workspace too, when trashed) goes for good. */
  async empty(user: UserEntity, workspaceId: number, applicationId: number | null): Promise<void> {
    await this.db.run(async () => {
      await this.requireScope(user, workspaceId, applicationId, applicationId === null ? W.emptyTrash : A.emptyTrash);
      await this.repo.markForDeletion(workspaceId, applicationId);
      // Baserow's `empty_trash` (not undoable: for the audit log).
      this.actions.record('empty_trash', { workspaceId, applicationId }, { scope: ActionScopes.workspace(workspaceId), workspaceId });
    });
    await this.deleteMarked();
  }

  /** `PATCH /api/trash/restore/`. */
  async restore(user: UserEntity, body: unknown): Promise<void> {
    const { type, itemId, parentId } = this.restoreRequest(body);
    const trashType = this.types.get(type)!;
    if (trashType.requiresParentId && parentId === null) throw TrashErrors.parentIdRequired();
    if (!trashType.requiresParentId && parentId !== null) throw TrashErrors.parentIdForbidden();
    await this.db.run(async () => {
      const entry = await this.repo.findEntry(type, itemId, parentId);
      if (!entry || !(await trashType.exists(entry))) throw TrashErrors.itemDoesNotExist();
      // A table's role decides the restore of what lives in it (Baserow's restore operations have the table as context).
      const tableId = await trashType.tableOf(entry);
      await this.permissions.require(user.id, trashType.restoreOperation, { workspaceId: entry.workspaceId, applicationId: entry.applicationId, tableId });
      if (await trashType.hasTrashedParent(entry)) throw TrashErrors.parentBeforeChild();
      if (entry.trashItemOwnerId !== null && entry.trashItemOwnerId !== user.id) throw TrashErrors.notOwnedByUser();
      // Two restores of one item: the second finds the entry gone.
      if (!(await this.repo.deleteEntry(entry.id))) throw TrashErrors.itemDoesNotExist();
      await trashType.restore(entry, user);
      // Baserow's `restore_from_trash` (an undo's restore is the undo's, not recorded again).
      this.actions.record('restore_from_trash', { itemType: type, itemId }, { scope: ActionScopes.workspace(entry.workspaceId), workspaceId: entry.workspaceId });
    });
  }

  // ------------------------------------------------------------------ permanent deletion

  /** Every hour: entries older than HOURS_UNTIL_TRASH_PERMANENTLY_DELETED are deleted for good. */
  @Cron(CronExpression.EVERY_HOUR)
  async purgeExpired(now = new Date()): Promise<void> {
    const cutoff = new Date(now.getTime() - this.config.hoursUntilTrashPermanentlyDeleted * 3600 * 1000);
    await this.db.run(() => this.repo.markOlderThan(cutoff));
    await this.deleteMarked();
  }

  /** Deletes the marked entries and their items, one entry per transaction (a workspace takes its entries with it). */
  private async deleteMarked(): Promise<void> {
    for (let after = 0; ; ) {
      const entry = await this.repo.nextMarked(after);
      if (!entry) return;
      after = entry.id;
      try {
        await this.db.run(async () => {
          await this.types.get(entry.trashItemType)?.permanentlyDelete(entry);
          await this.repo.deleteEntry(entry.id);
        });
      } catch (error) {
        // Logged and kept for the next run; the others still go.
        this.logger.error(`Permanent deletion of trash entry ${entry.id} (${entry.trashItemType} ${entry.trashItemId}) failed`, error instanceof Error ? error.stack : String(error));
      }
    }
  }

  // ------------------------------------------------------------------ helpers

  /** The workspace (trashed or not, unless marked for deletion) and the application in it, when the user may do `operation` there. */
  private async requireScope(user: UserEntity, workspaceId: number, applicationId: number | null, operation: OperationType): Promise<void> {
    const workspace = await this.repo.findWorkspace(workspaceId);
    if (!workspace || (await this.repo.isMarked('workspace', workspaceId))) throw Errors.workspaceDoesNotExist();
    if (applicationId !== null) {
      const application = await this.repo.findApplication(applicationId);
      if (!application || (await this.repo.isMarked('application', applicationId)) || (await this.isHidden(application))) throw Errors.applicationDoesNotExist();
      if (application.workspaceId !== workspaceId) throw Errors.applicationNotInWorkspace(applicationId);
    }
    await this.permissions.require(user.id, operation, { workspaceId, applicationId });
  }

  /** Baserow's TrashEntryRequestSerializer: every error at once. */
  private restoreRequest(body: unknown): { type: string; itemId: number; parentId: number | null } {
    const notAnObject = bodyObjectError(body);
    if (notAnObject) throw validationError(notAnObject);
    const specs: Record<string, FieldSpec> = {
      trash_item_type: { kind: 'choice', choices: this.types.names() },
      trash_item_id: { kind: 'id' },
      parent_trash_item_id: { kind: 'id', required: false, nullable: true },
    };
    const { values, errors } = checkObject(specs, (body ?? {}) as Record<string, unknown>);
    if (Object.keys(errors).length) throw validationError(errors);
    return { type: String(values.trash_item_type), itemId: Number(values.trash_item_id), parentId: values.parent_trash_item_id == null ? null : Number(values.parent_trash_item_id) };
  }
}

function truncate(text: string): string {
  return text.length > 255 ? text.slice(0, 255) : text;
}
