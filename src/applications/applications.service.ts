import { createHash } from 'node:crypto';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { Injectable, Logger } from '@nestjs/common';
import { HiddenBuilds, LongWrite } from '../core/database/long-write';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, Errors } from '../core/errors/api-error';
import { TrashService } from '../trash/trash.service';
import type { UserEntity } from '../users/user.entity';
import { serializeWorkspace } from '../workspaces/workspace.serializer';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { ApplicationOperations as A, OperationType, PermissionService, RoleReader, WorkspaceOperations as W } from '../permissions';
import { ApplicationEntity } from './application.entity';
import { ApplicationRepository } from './application.repository';
import { ApplicationJson } from './application.serializer';
import { ApplicationDocument, ApplicationType, ApplicationTypeRegistry, DocumentRows, RowsWritten } from './application-type';



const applicationTypeDoesNotExist = (type: string): ApiError => new ApiError('ERROR_APPLICATION_TYPE_DOES_NOT_EXIST', 400, `The application type ${type} does not exist.`);

/** SHA-256 hex of an id's decimal string, as `applications_reordered` and `tables_reordered` carry ids. */
export function hashId(id: number): string {
  return createHash('sha256').update(String(id)).digest('hex');
}

@Injectable()
export class ApplicationsService {
  private readonly logger = new Logger(ApplicationsService.name);

  constructor(
    private readonly db: UnitOfWork,
    private readonly long: LongWrite,
    private readonly repo: ApplicationRepository,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly workspaces: WorkspacesService,
    private readonly permissions: PermissionService,
    private readonly types: ApplicationTypeRegistry,
    private readonly trash: TrashService,
    private readonly actions: ActionLog,
  ) {}

  /** A live application, when the user may do `operation` on it: 404 when missing or trashed, else the permission check's answer. */
  async require(applicationId: number, userId: number, operation: OperationType): Promise<ApplicationEntity> {
    const application = await this.repo.findLive(applicationId);
    if (!application) throw Errors.applicationDoesNotExist();
    await this.permissions.require(userId, operation, { workspaceId: application.workspaceId, applicationId: application.id });
    return application;
  }

  /** Serializes applications with their nested workspace and type-specific keys. */
  async serialize(applications: ApplicationEntity[]): Promise<ApplicationJson[]> {
    const workspaces = new Map((await this.workspaceRepo.findWorkspaces([...new Set(applications.map((a) => a.workspaceId))])).map((w) => [w.id, w]));
    const extras = new Map<number, Record<string, unknown>>();
    for (const typeName of new Set(applications.map((a) => a.type))) {
      const type = this.types.get(typeName);
      if (!type) continue;
      for (const [id, keys] of await type.extraKeys(applications.filter((a) => a.type === typeName))) extras.set(id, keys);
    }
    return applications.map((a) => ({
      id: a.id,
      name: a.name,
      order: a.order,
      type: a.type,
      workspace: serializeWorkspace(workspaces.get(a.workspaceId)!),
      created_on: toApiDateTime(a.createdOn)!,
      ...(extras.get(a.id) ?? {}),
    }));
  }

  async serializeOne(application: ApplicationEntity): Promise<ApplicationJson> {
    return (await this.serialize([application]))[0];
  }

  /**
   * Serialized applications as the user may see them: those their roles let them list, with
   * only the tables they may list (Baserow filters both by the actor's roles).
   */
  async serializeFor(userId: number, applications: ApplicationEntity[]): Promise<ApplicationJson[]> {
    return this.visibleTo(userId, await this.serialize(applications));
  }

  /** Keeps of serialized applications what the user may see (the same JSON is shown to each member this way). */
  async visibleTo(userId: number, applications: ApplicationJson[]): Promise<ApplicationJson[]> {
    const readers = new Map<number, RoleReader>();
    const visible: ApplicationJson[] = [];
    for (const json of applications) {
      const workspaceId = json.workspace.id;
      if (!readers.has(workspaceId)) readers.set(workspaceId, await this.permissions.reader(userId, workspaceId));
      const reader = readers.get(workspaceId)!;
      if (!reader.sees(W.listApplications, { workspaceId, applicationId: json.id })) continue;
      const tables = (json as { tables?: { id: number }[] }).tables;
      if (!tables) visible.push(json);
      else visible.push({ ...json, tables: tables.filter((t) => reader.sees(A.listTables, { workspaceId, applicationId: json.id, tableId: t.id })) } as ApplicationJson);
    }
    return visible;
  }

  async listForUser(user: UserEntity): Promise<ApplicationJson[]> {
    return this.serializeFor(user.id, await this.repo.ofUser(user.id));
  }

  async listForWorkspace(user: UserEntity, workspaceId: number): Promise<ApplicationJson[]> {
    await this.workspaces.require(workspaceId, user.id, W.listApplications);
    return this.serializeFor(user.id, await this.repo.ofWorkspaces([workspaceId]));
  }

  /** Creates an application last in its workspace; its type may fill it (`init_with_data`). */
  async create(user: UserEntity, workspaceId: number, input: { name: string; type: string; initWithData?: boolean }): Promise<ApplicationEntity> {
    return this.db.run(async () => {
      await this.workspaces.require(workspaceId, user.id, W.createApplication);
      const application = await this.createInWorkspace(user, workspaceId, input);
      this.recordAction('create_application', workspaceId, { applicationId: application.id });
      return application;
    });
  }

  /**
   * Creation without the membership check, for callers that made it already (sign-up). `fill`,
   * when given, fills the new application instead of its type's `afterCreate` (the example
   * workspace), before the application is announced.
   */
  async createInWorkspace(
    user: UserEntity,
    workspaceId: number,
    input: { name: string; type: string; initWithData?: boolean },
    fill?: (application: ApplicationEntity) => Promise<void>,
  ): Promise<ApplicationEntity> {
    return this.db.run(async () => {
      const type = this.types.get(input.type);
      if (!type) throw applicationTypeDoesNotExist(input.type);
      const order = (await this.repo.maxOrder(workspaceId)) + 1;
      const application = await this.repo.create({ workspaceId, name: input.name, type: input.type, order, createdOn: new Date(), trashed: false });
      if (fill) await fill(application);
      else await type.afterCreate?.(application, user, { initWithData: input.initWithData ?? false });
      this.db.record('application.created', { applicationId: application.id, workspaceId });
      return application;
    });
  }

  async get(user: UserEntity, applicationId: number): Promise<ApplicationJson> {
    return (await this.serializeFor(user.id, [await this.require(applicationId, user.id, A.read)]))[0];
  }

  /**
   * Updates an application from a raw PATCH body, in Baserow's order: 404 when it does not
   * exist, then body validation, then the membership check. An empty body changes nothing.
   */
  /** A PATCH is partial: without a name nothing changes. */
  async update(user: UserEntity, applicationId: number, name: string | undefined): Promise<ApplicationJson> {
    const application = await this.db.run(async () => {
      const found = await this.require(applicationId, user.id, A.update);
      if (name === undefined) return found;
      await this.repo.update(found.id, { name });
      this.db.record('application.updated', { applicationId, workspaceId: found.workspaceId });
      this.recordAction('update_application', found.workspaceId, { applicationId, before: found.name, after: name });
      return { ...found, name };
    });
    return this.serializeOne(application);
  }

  /** Moves the application to the trash. */
  async delete(user: UserEntity, applicationId: number): Promise<void> {
    await this.db.run(async () => {
      const found = await this.require(applicationId, user.id, A.delete);
      const workspace = await this.workspaceRepo.findWorkspace(found.workspaceId);
      await this.trash.trashItem(ApplicationEntity, user, {
        type: 'application',
        itemId: found.id,
        workspaceId: found.workspaceId,
        applicationId: found.id,
        name: found.name,
        parentName: workspace?.name ?? null,
      });
      this.db.record('application.deleted', { applicationId, workspaceId: found.workspaceId });
      this.recordAction('delete_application', found.workspaceId, { applicationId });
    });
  }

  /** Lets each application's type drop its data before the workspaces are deleted for good. */
  async permanentlyDeleteOfWorkspaces(workspaceIds: number[]): Promise<void> {
    for (const workspaceId of workspaceIds) {
      for (const application of await this.repo.allOfWorkspace(workspaceId)) {
        await this.types.get(application.type)?.beforePermanentDelete?.(application);
      }
    }
  }

  /** An application deleted for good: its type drops its data, then it goes. */
  async permanentlyDelete(application: ApplicationEntity): Promise<void> {
    await this.types.get(application.type)?.beforePermanentDelete?.(application);
    await this.repo.delete(application.id);
  }

  /**
   * Copies an application (export then import through its type's serializer): named "<name> 2"
   * (or the next free number), placed right after the original. Outside a unit of work it is a
   * long write: the copy is built hidden (flagged trashed with no trash entry: listed nowhere,
   * the trash included), its data in chunks, then shown in one last short transaction that
   * records its events; a failure or a cancel (`written` throws) deletes it for good.
   */
  async duplicate(user: UserEntity, applicationId: number, written?: RowsWritten): Promise<ApplicationEntity> {
    const original = await this.require(applicationId, user.id, A.duplicate);
    await this.permissions.requireWholeDatabases(user.id, original.workspaceId, [original.id]);
    const type = this.types.get(original.type);
    if (!type?.exportSerialized || !type.importSerialized) throw applicationTypeDoesNotExist(original.type);
    const document = await type.exportSerialized(original);
    const base = original.name.slice(0, 150);
    const [copy] = await this.importHidden(user, original.workspaceId, [{ type, document, name: base }], written);
    return this.db.run(async () => {
      const siblings = await this.repo.ofWorkspaces([original.workspaceId]);
      const names = new Set(siblings.map((a) => a.name));
      let number = 2;
      while (names.has(`${base} ${number}`)) number++;
      const at = siblings.find((a) => a.id === original.id)?.order ?? original.order;
      const after = siblings.filter((sibling) => sibling.order > at);
      for (const sibling of after) await this.repo.update(sibling.id, { order: sibling.order + 1 });
      Object.assign(copy, { name: `${base} ${number}`, order: at + 1, trashed: false });
      await this.repo.update(copy.id, { name: copy.name, order: copy.order, trashed: false });
      this.db.record('application.created', { applicationId: copy.id, workspaceId: copy.workspaceId });
      this.recordAction('duplicate_application', copy.workspaceId, { applicationId: copy.id, originalApplicationId: original.id, originalApplicationName: original.name });
      // The applications after it moved one place on: the other clients learn the new order.
      if (after.length) {
        const ordered = [...siblings.filter((s) => s.order <= at), copy, ...after].map((a) => a.id);
        this.db.record('applications.reordered', { workspaceId: copy.workspaceId, applicationIds: ordered });
      }
      return copy;
    });
  }

  /**
   * Creates applications from serialized documents, last in the workspace in document order
   * (template installation); the caller checked the membership. All or nothing: they are built
   * hidden and shown together in one last transaction (see `duplicate`), in which `shown` runs
   * (the caller records its action there).
   */
  async importDocuments(
    user: UserEntity | null,
    workspaceId: number,
    documents: ApplicationDocument[],
    written?: RowsWritten,
    shown?: (created: ApplicationEntity[]) => void,
  ): Promise<ApplicationEntity[]> {
    const items = documents.map((document) => {
      const type = this.types.get(document.type);
      if (!type?.importSerialized) throw applicationTypeDoesNotExist(document.type);
      return { type, document, name: String(document.name).slice(0, 160) };
    });
    const created = await this.importHidden(user, workspaceId, items, written);
    return this.showHidden(created, async () => {
      for (const application of created) {
        application.order = (await this.repo.maxOrder(workspaceId)) + 1;
        application.trashed = false;
        await this.repo.update(application.id, { order: application.order, trashed: false });
        this.db.record('application.created', { applicationId: application.id, workspaceId });
      }
      shown?.(created);
      return created;
    });
  }

  /**
   * Creates an application from a document (a snapshot restore; `rows`: its rows read from the
   * snapshot's file, a batch at a time): last in the workspace, named
   * `name` or, when a live application of the workspace has it, `<name> 2` (the next free number;
   * Baserow's `find_unused_application_name`). Built hidden as `importDocuments`; `check` runs
   * first in the last transaction and throws to give up (the hidden application is then deleted
   * for good). `application_created` goes to every member, the requesting tab included (Baserow
   * sends it with no user); `shown` runs in that transaction too (the caller's action).
   */
  async restoreDocument(
    user: UserEntity,
    workspaceId: number,
    document: ApplicationDocument,
    name: string,
    check: () => Promise<void>,
    shown: (application: ApplicationEntity) => void,
    written?: RowsWritten,
    rows?: DocumentRows,
  ): Promise<ApplicationEntity> {
    const type = this.types.get(document.type);
    if (!type?.importSerialized) throw applicationTypeDoesNotExist(document.type);
    const [application] = await this.importHidden(user, workspaceId, [{ type, document, name: name.slice(0, 160), rows }], written);
    return this.showHidden([application], async () => {
      await check();
      const taken = new Set((await this.repo.ofWorkspaces([workspaceId])).map((a) => a.name));
      const base = name.slice(0, 160);
      let unused = base;
      for (let number = 2; taken.has(unused); number++) unused = `${base} ${number}`;
      Object.assign(application, { name: unused, order: (await this.repo.maxOrder(workspaceId)) + 1, trashed: false });
      await this.repo.update(application.id, { name: application.name, order: application.order, trashed: false });
      this.db.recordAsSystem('application.created', { applicationId: application.id, workspaceId });
      shown(application);
      return application;
    });
  }

  /** The last transaction of a hidden build (it shows what was built); when it fails, what was built is deleted for good. */
  private async showHidden<T>(created: ApplicationEntity[], work: () => Promise<T>): Promise<T> {
    try {
      return await this.db.run(work);
    } catch (error) {
      if (this.long.chunked) for (const application of created) await this.dropHidden(application);
      throw error;
    }
  }

  /** Applications built hidden from documents, each created in a short transaction of its own first; all deleted for good when one fails. */
  private importHidden(
    user: UserEntity | null,
    workspaceId: number,
    items: { type: ApplicationType; document: ApplicationDocument; name: string; rows?: DocumentRows }[],
    written?: RowsWritten,
  ): Promise<ApplicationEntity[]> {
    return HiddenBuilds.run(() => this.buildHidden(user, workspaceId, items, written));
  }

  private async buildHidden(
    user: UserEntity | null,
    workspaceId: number,
    items: { type: ApplicationType; document: ApplicationDocument; name: string; rows?: DocumentRows }[],
    written?: RowsWritten,
  ): Promise<ApplicationEntity[]> {
    const created: ApplicationEntity[] = [];
    try {
      for (const { type, document, name, rows } of items) {
        const application = await this.long.chunk(
          () => this.repo.create({ workspaceId, name, type: document.type, order: 0, createdOn: new Date(), trashed: true }),
          { hidden: true },
        );
        created.push(application);
        HiddenBuilds.addApplication(application.id);
        await type.importSerialized!(application, document, user, written, rows);
      }
    } catch (error) {
      // Inside a caller's transaction, its rollback takes them.
      if (this.long.chunked) for (const application of created) await this.dropHidden(application);
      throw error;
    }
    return created;
  }

  /** Deletes for good an application a long write built and did not show. */
  private async dropHidden(application: ApplicationEntity): Promise<void> {
    try {
      await this.db.run(() => this.permanentlyDelete(application), { dropEvents: true });
    } catch (error) {
      this.logger.error(`Deleting the hidden application ${application.id} failed`, error instanceof Error ? error.stack : String(error));
    }
  }

  /** Orders the workspace's applications as listed; the ones not listed get order 0. */
  async order(user: UserEntity, workspaceId: number, applicationIds: number[]): Promise<void> {
    await this.db.run(async () => {
      await this.workspaces.require(workspaceId, user.id, W.orderApplications);
      // Trashed applications cannot be ordered (Baserow's default manager hides them).
      const all = await this.repo.liveIdsOfWorkspace(workspaceId);
      const known = new Set(all);
      for (const id of applicationIds) if (!known.has(id)) throw Errors.applicationNotInWorkspace(id);
      const positions = new Map<number, number>();
      applicationIds.forEach((id, index) => positions.set(id, index + 1));
      for (const id of all) await this.repo.update(id, { order: positions.get(id) ?? 0 });
      const ordered = [...all].sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0) || a - b);
      this.db.record('applications.reordered', { workspaceId, applicationIds: ordered });
      this.recordAction('order_applications', workspaceId, { before: all, after: applicationIds });
    });
  }

  /** Records an application action of the workspace (scope `workspace<id>`). */
  recordAction(type: string, workspaceId: number, params: Record<string, unknown>): void {
    this.actions.record(type, { workspaceId, ...params }, { scope: ActionScopes.workspace(workspaceId), workspaceId });
  }
}
