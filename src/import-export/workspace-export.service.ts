import { Inject, Injectable } from '@nestjs/common';
import { ApplicationOperations as A, PermissionService, WorkspaceOperations as W } from '../permissions';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import * as yazl from 'yazl';
import type { ApplicationEntity } from '../applications/application.entity';
import { ApplicationTypeRegistry } from '../applications/application-type';
import { ApplicationRepository } from '../applications/application.repository';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { toApiDateTime } from '../core/database/columns';
import { ApiError } from '../core/errors/api-error';
import type { DatabaseDocument, FieldDocument, RowDocument, TableDocument } from '../database/serialization/database-document';
import type { DatabasePart } from '../database/serialization/database-serializer';
import { userFileKey } from '../files/user-files.service';
import { FileStorage } from '../files/storage/file-storage';
import { JobProgress, JobRunner } from '../jobs/job-runner';
import { serializeJob } from '../jobs/job.serializer';
import type { UserEntity } from '../users/user.entity';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { buildManifest, ManifestApplication, MANIFEST_NAME, SIGNATURE_NAME } from './archive/manifest';
import { signManifest } from './archive/signature';
import { ExportContext, toBaserowRow, toBaserowTableHead } from './baserow/baserow-database';
import { archiveName, exportKey } from './import-export.entity';
import { ImportExportRepository } from './import-export.repository';
import { SigningKeysService } from './signing-keys.service';
import { workspacePeople } from './workspace-people';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { UnitOfWork } from '../core/database/unit-of-work';
import { yieldTurn } from '../core/lifecycle/yield-turn';

export const EXPORT_JOB_TYPE = 'export_applications';
/** Baserow's WORKSPACE_EXPORTS_LIMIT: the exports a workspace's list shows. */
const WORKSPACE_EXPORTS_LIMIT = 5;
const USER_FILE_SHA = /_([a-fA-F0-9]{64})(\.[^.]*)?$/;

const permissionDenied = () => new ApiError('PERMISSION_DENIED', 401, "You don't have the required permission to execute this operation.");

/**
 * Workspace export in Baserow's format (`ImportExportHandler.export_workspace_applications`): a
 * zip with one JSON file per application (`<type>__<uuid>_<sha256>.json`), the user files the
 * cells name (under their names), `manifest.json` with every file's SHA-256 and
 * `manifest_signature.json`, written as a stream into the file storage as
 * `export_files/<uuid>.zip`. A job (`export_applications`), one running per user.
 */
@Injectable()
export class WorkspaceExportService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly applications: ApplicationRepository,
    private readonly types: ApplicationTypeRegistry,
    private readonly runner: JobRunner,
    private readonly repo: ImportExportRepository,
    private readonly storage: FileStorage,
    private readonly keys: SigningKeysService,
    private readonly db: UnitOfWork,
    private readonly actions: ActionLog,
    private readonly permissions: PermissionService,
  ) {}

  async exportAsync(user: UserEntity, workspaceId: number, body: { application_ids?: number[] | null; only_structure?: boolean }): Promise<Record<string, unknown>> {
    await this.workspaces.require(workspaceId, user.id, W.read);
    const ids = body.application_ids ?? [];
    const onlyStructure = body.only_structure ?? false;
    const applications = await this.applicationsToExport(user, workspaceId, ids);
    const job = await this.runner.start(
      user,
      EXPORT_JOB_TYPE,
      { exported_file_name: null, url: null, created_on: toApiDateTime(new Date()), workspace_id: workspaceId },
      async (progress) => {
        const done = await this.write(user, workspaceId, ids, onlyStructure, progress);
        // Baserow's `export_applications` (not undoable: for the audit log).
        const params = { applicationIds: applications.map((a) => a.id), applicationNames: applications.map((a) => a.name) };
        await this.db.run(async () => this.actions.record('export_applications', params, { scope: ActionScopes.workspace(workspaceId), workspaceId }));
        return done;
      },
    );
    return serializeJob(job);
  }

  /** Baserow's `list_exports`: the user's finished exports of the workspace whose zip is still there, latest first (at most 5). */
  async listExports(user: UserEntity, workspaceId: number): Promise<{ results: Record<string, unknown>[] }> {
    await this.workspaces.require(workspaceId, user.id, W.read);
    const jobs = (await this.repo.finishedJobs(user.id, EXPORT_JOB_TYPE, 100)).filter((job) => job.data.workspace_id === workspaceId && typeof job.data.exported_file_name === 'string');
    const results: Record<string, unknown>[] = [];
    for (const job of jobs) {
      if (results.length >= WORKSPACE_EXPORTS_LIMIT) break;
      const uuid = String(job.data.exported_file_name).replace(/^export_/, '').replace(/\.zip$/, '');
      if (await this.repo.validResourceWithUuid(uuid)) results.push(serializeJob(job));
    }
    return { results };
  }

  /**
   * The live applications to export, in their order: all of the workspace's the user may see, or
   * the listed ones (every one of them must be there and visible). Each must be readable whole:
   * an export holding a table the user may not read is refused.
   */
  private async applicationsToExport(user: UserEntity, workspaceId: number, ids: number[]): Promise<ApplicationEntity[]> {
    const reader = await this.permissions.reader(user.id, workspaceId);
    const all = (await this.applications.ofWorkspaces([workspaceId]))
      .filter((a) => !a.trashed && reader.sees(A.read, { workspaceId, applicationId: a.id }))
      .sort((a, b) => a.order - b.order || a.id - b.id);
    const wanted = new Set(ids);
    const chosen = ids.length ? all.filter((a) => wanted.has(a.id)) : all;
    if (ids.length && chosen.length !== wanted.size) throw permissionDenied();
    await this.permissions.requireWholeDatabases(user.id, workspaceId, chosen.map((a) => a.id));
    return chosen;
  }

  /** The batches of rows, each once the user files its file cells name are looked up in the storage (each name once). */
  private async *checkedRows(batches: AsyncIterable<RowDocument[]>, fields: FieldDocument[], stored: Map<string, boolean>): AsyncGenerator<RowDocument[]> {
    const fileFields = fields.filter((field) => field.type === 'file');
    for await (const rows of batches) {
      for (const row of rows) {
        for (const field of fileFields) {
          for (const item of (row[`field_${field.id}`] as { name?: unknown }[] | null) ?? []) {
            const name = String(item?.name ?? '');
            if (!stored.has(name)) stored.set(name, USER_FILE_SHA.test(name) && (await this.storage.exists(userFileKey(name))));
          }
        }
      }
      yield rows;
    }
  }

  private async write(user: UserEntity, workspaceId: number, ids: number[], onlyStructure: boolean, progress: JobProgress): Promise<Record<string, unknown>> {
    await this.workspaces.require(workspaceId, user.id, W.read);
    const applications = await this.applicationsToExport(user, workspaceId, ids);
    const people = await workspacePeople(this.workspaceRepo, workspaceId);
    const resource = await this.repo.createResource({ createdById: user.id });
    const key = exportKey(resource);
    const zip = new yazl.ZipFile();
    const out = new PassThrough();
    let size = 0;
    zip.outputStream.on('data', (chunk: Buffer) => (size += chunk.length));
    zip.outputStream.pipe(out);
    const saving = this.storage.save(key, out, { contentType: 'application/zip', inline: false });
    saving.catch(() => out.destroy());
    const spoolDir = join(this.config.uploadTmpDir, `rowspace-export-${randomBytes(12).toString('hex')}`);
    await mkdir(spoolDir, { recursive: true });
    try {
      const checksums: Record<string, string> = {};
      const items: ManifestApplication[] = [];
      const files = new Set<string>();
      /** Whether each user file a cell names is in the storage (a missing one is left out of its cell: the zip stays importable). */
      const stored = new Map<string, boolean>();
      let nextId = 0;
      const ctx: ExportContext = { people, file: (name) => files.add(name), hasFile: (name) => stored.get(name) === true, nextId: () => ++nextId };
      for (const [index, application] of applications.entries()) {
        const type = this.types.get(application.type);
        if (!type?.exportParts) continue;
        // Streamed: the document without rows, then each table's rows a batch at a time.
        const parts = new TableRows(type.exportParts(application) as AsyncIterable<DatabasePart>);
        const document = await parts.document();
        const uuid = randomUUID().replace(/-/g, '');
        const rowsOf = (table: TableDocument) => (onlyStructure ? emptyRows() : this.checkedRows(parts.of(table.id), table.fields, stored));
        const { path, sha256 } = await writeApplicationJson(join(spoolDir, `${uuid}.json`), application, document, rowsOf, ctx);
        const name = `${application.type}__${uuid}_${sha256}.json`;
        zip.addFile(path, name, { compress: true });
        checksums[name] = sha256;
        items.push({ id: application.id, type: application.type, name: application.name, uuid, total_files: 1, files: { schema: name } });
        await progress.set({ progress: Math.floor(((index + 1) / Math.max(1, applications.length)) * 80) });
      }
      for (const name of files) {
        const sha = USER_FILE_SHA.exec(name)![1];
        zip.addReadStream(await this.storage.open(userFileKey(name)), name, { compress: true });
        checksums[name] = sha.toLowerCase();
      }
      const manifest = buildManifest(items, checksums, onlyStructure);
      zip.addBuffer(Buffer.from(JSON.stringify(manifest)), MANIFEST_NAME, { compress: true });
      zip.addBuffer(Buffer.from(JSON.stringify(signManifest(manifest, await this.keys.ownKeys()))), SIGNATURE_NAME, { compress: true });
      zip.end();
      await saving;
      await this.repo.updateResource(resource.id, { isValid: true, size });
      await progress.set({ progress: 99 });
    } catch (error) {
      out.destroy();
      await saving.catch(() => undefined);
      await this.storage.delete(key).catch(() => undefined);
      await this.repo.updateResource(resource.id, { markedForDeletion: true }).catch(() => undefined);
      throw error;
    } finally {
      await rm(spoolDir, { recursive: true, force: true });
    }
    const name = archiveName(resource);
    return { exported_file_name: `export_${name}`, url: await this.storage.url(key, { downloadName: `export_${name}` }) };
  }
}

/**
 * An application's JSON as Baserow's `export_serialized` writes it (`{id, name, order, type,
 * tables}`), written to a file a batch of rows at a time (never one whole string), hashed as written.
 */
async function writeApplicationJson(
  path: string,
  application: ApplicationEntity,
  document: DatabaseDocument,
  rowsOf: (table: TableDocument) => AsyncIterable<RowDocument[]>,
  ctx: ExportContext,
): Promise<{ path: string; sha256: string }> {
  const hash = createHash('sha256');
  const file = createWriteStream(path);
  const write = async (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    if (!file.write(chunk)) await once(file, 'drain');
  };
  try {
    const head = JSON.stringify({ id: application.id, name: application.name, order: application.order, type: application.type });
    await write(`${head.slice(0, -1)}, "tables": [`);
    for (const [t, table] of document.tables.entries()) {
      const tableHead = JSON.stringify(toBaserowTableHead(table, ctx));
      // The rows go between the head's `"rows": [` and `]`.
      const at = tableHead.indexOf('"rows":[]');
      await write(`${t ? ', ' : ''}${tableHead.slice(0, at)}"rows": [`);
      let first = true;
      for await (const rows of rowsOf(table)) {
        if (!rows.length) continue;
        await write(`${first ? '' : ', '}${rows.map((row) => JSON.stringify(toBaserowRow(table.fields, row, ctx))).join(', ')}`);
        first = false;
        await yieldTurn();
      }
      await write(`]${tableHead.slice(at + '"rows":[]'.length)}`);
    }
    await write(']}');
    file.end();
    await once(file, 'close');
  } catch (error) {
    file.destroy();
    throw error;
  }
  return { path, sha256: hash.digest('hex') };
}

async function* emptyRows(): AsyncGenerator<RowDocument[]> {}

/**
 * A streamed database export read table by table: its document (tables without rows), then
 * the rows of each table in the document's order (a table's batches come together; a table
 * without rows has none), read in that order.
 */
class TableRows {
  private readonly parts: AsyncIterator<DatabasePart>;
  private pending: DatabasePart | null = null;

  constructor(parts: AsyncIterable<DatabasePart>) {
    this.parts = parts[Symbol.asyncIterator]();
  }

  async document(): Promise<DatabaseDocument> {
    const first = await this.parts.next();
    if (first.done || first.value.kind !== 'document') throw new Error('A streamed export starts with its document.');
    return first.value.document;
  }

  async *of(tableId: number): AsyncGenerator<RowDocument[]> {
    for (;;) {
      const part = this.pending ?? (await this.next());
      this.pending = null;
      if (!part) return;
      if (part.kind !== 'rows') continue;
      if (part.table !== tableId) {
        // The next table's rows: kept for it.
        this.pending = part;
        return;
      }
      yield part.rows;
    }
  }

  private async next(): Promise<DatabasePart | null> {
    const result = await this.parts.next();
    return result.done ? null : result.value;
  }
}
