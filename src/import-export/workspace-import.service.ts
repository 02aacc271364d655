import { Inject, Injectable, Logger } from '@nestjs/common';
import { WorkspaceOperations as W } from '../permissions';
import { createReadStream } from 'node:fs';
import type { Request, Response } from 'express';
import type { ApplicationDocument } from '../applications/application-type';
import { ApplicationsService } from '../applications/applications.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { DatabaseDocument } from '../database/serialization/database-document';
import { readFilePart } from '../files/multipart';
import { spool, SpooledFile } from '../files/spool';
import { FileStorage } from '../files/storage/file-storage';
import { UserFilesService } from '../files/user-files.service';
import { JobProgress, JobRunner } from '../jobs/job-runner';
import { serializeJob } from '../jobs/job.serializer';
import type { UserEntity } from '../users/user.entity';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { parseApplicationJson } from './archive/json-rows';
import { checkManifest, Manifest, ManifestApplication, MANIFEST_NAME, SIGNATURE_NAME } from './archive/manifest';
import { ZipArchive } from './archive/zip-reader';
import { fromBaserowDatabase } from './baserow/baserow-database';
import { ImportExportResourceEntity, importKey } from './import-export.entity';
import { ArchiveRefused, ImportExportErrors } from './import-export.errors';
import { ImportExportRepository } from './import-export.repository';
import { SettingsService } from '../settings/settings.service';
import { SigningKeysService } from './signing-keys.service';
import { workspacePeople } from './workspace-people';

export const IMPORT_JOB_TYPE = 'import_applications';
/** A manifest lists every file with its checksum (about 150 bytes each): far more than any export holds. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const MAX_SIGNATURE_BYTES = 64 * 1024;

/** Baserow's ImportResourceSerializer. */
export function serializeResource(resource: ImportExportResourceEntity): { id: number; name: string; size: number } {
  return { id: resource.id, name: resource.originalName || `${resource.uuid}.zip`, size: resource.size };
}

/**
 * Workspace import of Baserow's export zips (`ImportExportHandler.create_resource_from_file` and
 * `import_workspace_applications`): an upload is checked (a zip within its bounds, no unsafe
 * entry, a manifest of format 1.0.0 counting its files, a trusted signature when
 * `verify_import_signature` is on) and kept as a resource; the import job checks it again with
 * every file's checksum, stores the user files the cells name through the user files service,
 * and creates the applications all or nothing (built hidden, shown in one last transaction).
 * The uploaded zip is removed when the import ends, whatever its outcome.
 */
@Injectable()
export class WorkspaceImportService {
  private readonly logger = new Logger(WorkspaceImportService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: UnitOfWork,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly applications: ApplicationsService,
    private readonly runner: JobRunner,
    private readonly repo: ImportExportRepository,
    private readonly storage: FileStorage,
    private readonly userFiles: UserFilesService,
    private readonly keys: SigningKeysService,
    private readonly settings: SettingsService,
  ) {}

  private get bounds() {
    return { maxInflatedBytes: this.config.importExportMaxInflatedBytes, maxRatio: this.config.importExportMaxCompressionRatio };
  }

  async upload(user: UserEntity, workspaceId: number, req: Request, res: Response): Promise<{ id: number; name: string; size: number }> {
    await this.workspaces.require(workspaceId, user.id, W.createApplication);
    const { name, file } = await readFilePart(req, res, { limitBytes: this.config.fileUploadSizeLimitBytes, tmpDir: this.config.uploadTmpDir });
    try {
      const archive = await this.openChecked(file.path);
      archive.close();
      const resource = await this.repo.createResource({ createdById: user.id, originalName: name.slice(0, 255), size: file.size, isValid: true });
      try {
        await this.storage.save(importKey(resource), createReadStream(file.path), { contentType: 'application/zip', inline: false });
      } catch (error) {
        await this.repo.updateResource(resource.id, { isValid: false, markedForDeletion: true });
        throw error;
      }
      return serializeResource(resource);
    } catch (error) {
      if (error instanceof ArchiveRefused) {
        this.logger.warn(`Workspace import upload refused: ${error.reason}`);
        throw error.toApiError();
      }
      throw error;
    } finally {
      await file.discard();
    }
  }

  /** Baserow's `validate_manifest` (with the signature when the setting asks for it): the archive open, or ArchiveRefused. */
  private async openChecked(path: string): Promise<ZipArchive & { manifest: Manifest }> {
    const archive = await ZipArchive.open(path, this.bounds);
    try {
      if (!archive.has(MANIFEST_NAME)) throw new ArchiveRefused('invalid', 'Manifest file is missing.');
      const manifest = checkManifest((await archive.read(MANIFEST_NAME, MAX_MANIFEST_BYTES)).toString('utf8'), archive.names.length);
      if ((await this.settings.get()).verifyImportSignature) {
        if (!archive.has(SIGNATURE_NAME)) throw new ArchiveRefused('invalid', 'Signature file is missing.');
        let signature: unknown;
        try {
          signature = JSON.parse((await archive.read(SIGNATURE_NAME, MAX_SIGNATURE_BYTES)).toString('utf8'));
        } catch {
          throw new ArchiveRefused('invalid', 'Signature file is corrupted.');
        }
        const check = await this.keys.check(manifest, signature);
        if (check === 'untrusted') throw new ArchiveRefused('untrusted', 'Signature public key is not trusted.');
        if (check !== 'valid') throw new ArchiveRefused('invalid', 'Signature verification failed.');
      }
      return Object.assign(archive, { manifest });
    } catch (error) {
      archive.close();
      throw error;
    }
  }

  async importAsync(user: UserEntity, workspaceId: number, body: { resource_id: number; application_ids?: number[] | null }): Promise<Record<string, unknown>> {
    await this.workspaces.require(workspaceId, user.id, W.createApplication);
    const resource = await this.repo.findOwned(body.resource_id, user.id);
    if (!resource) throw ImportExportErrors.resourceDoesNotExist();
    if (!resource.isValid) throw ImportExportErrors.resourceIsInvalid();
    const job = await this.runner.start(user, IMPORT_JOB_TYPE, { installed_applications: null, workspace_id: workspaceId, resource: serializeResource(resource) }, (progress) =>
      this.run(user, workspaceId, resource, body.application_ids ?? [], progress),
    );
    return serializeJob(job);
  }

  /** Baserow's `mark_resource_for_deletion`: the user's resource, unless an import of it is running; its zip goes. */
  async deleteResource(user: UserEntity, workspaceId: number, resourceId: number): Promise<void> {
    await this.workspaces.require(workspaceId, user.id, W.createApplication);
    const resource = await this.repo.findOwned(resourceId, user.id);
    if (!resource) throw ImportExportErrors.resourceDoesNotExist();
    const running = await this.repo.runningJobs(IMPORT_JOB_TYPE);
    if (running.some((job) => (job.data.resource as { id?: number } | undefined)?.id === resource.id)) throw ImportExportErrors.resourceIsBeingImported();
    await this.discard(resource);
  }

  private async discard(resource: ImportExportResourceEntity): Promise<void> {
    await this.db.outside(() => this.repo.updateResource(resource.id, { markedForDeletion: true }));
    await this.storage.delete(importKey(resource)).catch((error: Error) => this.logger.warn(`Could not delete ${importKey(resource)}: ${error.message}`));
  }

  private async run(user: UserEntity, workspaceId: number, resource: ImportExportResourceEntity, applicationIds: number[], progress: JobProgress): Promise<Record<string, unknown>> {
    let local: SpooledFile | null = null;
    try {
      local = await spool(await this.storage.open(importKey(resource)), Number.MAX_SAFE_INTEGER, this.config.uploadTmpDir).catch(() => {
        throw new ArchiveRefused('missing', 'The import file does not exist.');
      });
      await progress.set({ progress: 5 });
      const archive = await this.openChecked(local.path);
      try {
        return await this.importArchive(user, workspaceId, archive, applicationIds, progress);
      } finally {
        archive.close();
      }
    } catch (error) {
      if (error instanceof ArchiveRefused) {
        this.logger.warn(`Workspace import ${resource.id} refused: ${error.reason}`);
        throw error.toJobError();
      }
      throw error;
    } finally {
      await local?.discard();
      await this.discard(resource).catch(() => undefined);
    }
  }

  private async importArchive(user: UserEntity, workspaceId: number, archive: ZipArchive & { manifest: Manifest }, applicationIds: number[], progress: JobProgress): Promise<Record<string, unknown>> {
    const { manifest } = archive;
    // `validate_checksums`: every file the manifest lists is there with its SHA-256.
    for (const [name, checksum] of Object.entries(manifest.checksums)) {
      if (!archive.has(name)) throw new ArchiveRefused('missing', `The file ${name} does not exist.`);
      if ((await archive.sha256(name)) !== checksum.toLowerCase()) throw new ArchiveRefused('invalid', `Checksum validation failed for ${name}.`);
    }
    await progress.set({ progress: 15 });
    let items: ManifestApplication[] = Object.values(manifest.applications).flatMap((group) => group.items);
    if (applicationIds.length) {
      const available = new Set(items.map((item) => item.id));
      if (applicationIds.some((id) => !available.has(id))) throw ImportExportErrors.applicationIdsNotFound();
      items = items.filter((item) => applicationIds.includes(item.id));
    }
    const people = await workspacePeople(this.workspaceRepo, workspaceId);
    const documents: DatabaseDocument[] = [];
    for (const item of items) {
      if (item.type !== 'database') throw new ArchiveRefused('invalid', `The application type ${item.type} is not supported.`);
      if (!archive.has(item.files.schema)) throw new ArchiveRefused('missing', `The file ${item.files.schema} does not exist.`);
      const json = await parseApplicationJson((await archive.read(item.files.schema, this.config.importExportMaxApplicationBytes)).toString('utf8'), item.files.schema);
      documents.push(await fromBaserowDatabase(json, typeof json.name === 'string' ? json.name : item.name, people));
    }
    await progress.set({ progress: 25 });
    await this.storeFiles(archive, documents);
    await progress.set({ progress: 30 });
    const created = await this.applications.importDocuments(user, workspaceId, documents as unknown as ApplicationDocument[], (done, total) =>
      progress.set({ progress: 30 + Math.floor((done / Math.max(1, total)) * 65) }),
    );
    return { installed_applications: await this.applications.serialize(created) };
  }

  /**
   * The user files the file cells name, stored through the user files service (as Baserow's
   * `upload_user_file`, a file already stored under the same name and content is reused) and the
   * cells renamed to them. A named file missing from the zip refuses it.
   */
  private async storeFiles(archive: ZipArchive, documents: DatabaseDocument[]): Promise<void> {
    const cells: { name: string }[][] = [];
    for (const document of documents) {
      for (const table of document.tables) {
        const fileFields = table.fields.filter((field) => field.type === 'file');
        for (const row of table.rows) for (const field of fileFields) if (Array.isArray(row[`field_${field.id}`])) cells.push(row[`field_${field.id}`] as { name: string }[]);
      }
    }
    const renamed = new Map<string, string>();
    for (const items of cells) {
      for (const item of items) {
        if (renamed.has(item.name)) continue;
        if (!archive.has(item.name)) throw new ArchiveRefused('missing', `The file ${item.name} does not exist.`);
        const spooled = await spool(await archive.stream(item.name), this.config.fileUploadSizeLimitBytes, this.config.uploadTmpDir).catch((error: Error) => {
          throw new ArchiveRefused('invalid', `The file ${item.name} cannot be read: ${error.message}`);
        });
        renamed.set(item.name, (await this.userFiles.upload(null, item.name, spooled)).name);
      }
    }
    for (const items of cells) for (const item of items) item.name = renamed.get(item.name)!;
  }
}
