import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ApplicationsService } from '../applications/applications.service';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { yieldTurn } from '../core/lifecycle/yield-turn';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { Template, TemplateCatalog } from './template-catalog';
import { TemplatePreviewEntity } from './template-preview.entity';
import { TemplatePreviewRepository } from './template-preview.repository';

/** A preview being built older than this is no running sync's: on PostgreSQL another instance may still be building a younger one. */
const BUILDING_AGE_HOURS = 24;

/**
 * Keeps a read-only preview workspace per template in step with the catalogue (Baserow's
 * `sync_templates`): at start-up, in the background, each template whose files changed (its
 * `export_hash`) is installed again in a new workspace with no member, and the old one is
 * deleted for good, as are the previews of templates no longer in TEMPLATES_DIR. An install is a
 * long write (chunks, built hidden); the preview is shown (and its old one deleted) in one short
 * transaction at the end. Anyone signed in may read a preview (the permission check's
 * `allow_if_template` path); nobody may change it.
 */
@Injectable()
export class TemplatePreviews implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TemplatePreviews.name);
  private stopping = false;
  /** The start-up sync (resolved at once when it is turned off); never rejects. */
  synced: Promise<void> = Promise.resolve();

  constructor(
    private readonly catalog: TemplateCatalog,
    private readonly repo: TemplatePreviewRepository,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly workspaces: WorkspacesService,
    private readonly applications: ApplicationsService,
    private readonly db: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.templatePreviews) return;
    // In the background: the server answers meanwhile; a template's preview shows once it is built.
    this.synced = this.sync().catch((error: unknown) => this.logger.error('Syncing the template previews failed', error instanceof Error ? error.stack : String(error)));
  }

  async onApplicationShutdown(): Promise<void> {
    // The template being built is finished (a chunk at a time, short); the others wait for the next start.
    this.stopping = true;
    await this.synced;
  }

  /** The built previews by slug (what `/api/templates/` answers as `workspace_id` and `open_application`). */
  ready(): Promise<Map<string, TemplatePreviewEntity>> {
    return this.repo.ready();
  }

  /** Brings every preview in step with the catalogue. */
  async sync(): Promise<void> {
    const rows = await this.repo.all();
    const cutoff = this.config.databaseUrl === null ? Date.now() : Date.now() - BUILDING_AGE_HOURS * 3600 * 1000;
    const slugs = new Set(this.catalog.templates.map((t) => t.slug));
    // Gone from the catalogue, or left half-built by a stopped process.
    const stale = rows.filter((row) => !slugs.has(row.slug) || (row.exportHash === null && row.createdOn.getTime() < cutoff));
    for (const row of stale) {
      if (this.stopping) return;
      await this.deleteWorkspace(row.workspaceId);
    }
    const kept = rows.filter((row) => !stale.includes(row));
    for (const template of this.catalog.templates) {
      if (this.stopping) return;
      try {
        await this.syncOne(template, kept.filter((row) => row.slug === template.slug));
      } catch (error) {
        this.logger.error(`The preview of the template ${template.slug} could not be built: ${error instanceof Error ? error.message : String(error)}`);
      }
      await yieldTurn();
    }
  }

  private async syncOne(template: Template, rows: TemplatePreviewEntity[]): Promise<void> {
    const hash = exportHash(template);
    const current = rows.filter((row) => row.exportHash === hash).pop();
    if (current) {
      const workspace = await this.workspaceRepo.findWorkspace(current.workspaceId);
      if (workspace && workspace.name !== template.name) await this.db.run(() => this.workspaceRepo.updateWorkspace(workspace.id, { name: template.name }));
      return;
    }
    // Another instance is building this very version: it will show it.
    if (this.config.databaseUrl !== null && rows.some((row) => row.exportHash === null)) return;
    const building = await this.db.run(async () => {
      const workspace = await this.workspaceRepo.createWorkspace(template.name.slice(0, 165));
      return this.repo.insertBuilding(template.slug, workspace.id);
    });
    let openApplication: number | null;
    try {
      const created = await this.applications.importDocuments(null, building.workspaceId, structuredClone(template.applications));
      openApplication = (created[template.openApplication] ?? created[0])?.id ?? null;
    } catch (error) {
      await this.deleteWorkspace(building.workspaceId);
      throw error;
    }
    await this.db.run(async () => {
      const locked = await this.repo.lockSlug(template.slug);
      // Two instances built it at once: the first to finish keeps its own.
      if (locked.some((row) => row.id !== building.id && row.exportHash === hash)) {
        await this.deletePermanently(building.workspaceId);
        return;
      }
      for (const row of locked) if (row.id !== building.id) await this.deletePermanently(row.workspaceId);
      await this.repo.markReady(building.id, hash, openApplication);
    });
    this.logger.log(`The template ${template.slug} can be previewed in workspace ${building.workspaceId}.`);
  }

  private deleteWorkspace(workspaceId: number): Promise<void> {
    return this.db.run(() => this.deletePermanently(workspaceId), { dropEvents: true });
  }

  /** A preview's workspace and its applications deleted for good (its row goes with it). */
  private async deletePermanently(workspaceId: number): Promise<void> {
    if (!(await this.workspaceRepo.findWorkspace(workspaceId))) return;
    await this.workspaces.deletePermanently(workspaceId, (ids) => this.applications.permanentlyDeleteOfWorkspaces(ids));
  }
}

/** What a preview is built from: a change of it builds the preview again (Baserow's `export_hash`). */
function exportHash(template: Template): string {
  return createHash('sha256').update(JSON.stringify({ applications: template.applications, open_application: template.openApplication })).digest('hex');
}
