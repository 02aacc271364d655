import { Inject, Injectable } from '@nestjs/common';
import { ApplicationsService } from '../applications/applications.service';
import type { ApplicationJson } from '../applications/application.serializer';
import type { RowsWritten } from '../applications/application-type';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { ApiError, Errors } from '../core/errors/api-error';
import { JobRunner } from '../jobs/job-runner';
import { serializeJob } from '../jobs/jobs.service';
import type { UserEntity } from '../users/user.entity';
import { serializeWorkspace } from '../workspaces/workspace.serializer';
import { WorkspaceRepository } from '../workspaces/workspace.repository';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import { PermissionService, WorkspaceOperations as W } from '../permissions';
import { Template, TemplateCatalog } from './template-catalog';
import type { TemplatePreviewEntity } from './template-preview.entity';
import { TemplatePreviews } from './template-previews';

export const TemplateErrors = {
  templateDoesNotExist: () => new ApiError('ERROR_TEMPLATE_DOES_NOT_EXIST', 404, 'The requested template does not exist.'),
};

/** Baserow's TemplateSerializer. */
export interface TemplateJson {
  id: number;
  name: string;
  slug: string;
  icon: string;
  keywords: string;
  workspace_id: number | null;
  is_default: boolean;
  open_application: number | null;
}

/**
 * The template catalogue and installation: a template's serialized applications are imported
 * into the user's workspace through each application type's serializer, the same import
 * application duplication uses, in one unit of work (an import that fails leaves nothing).
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly catalog: TemplateCatalog,
    private readonly applications: ApplicationsService,
    private readonly permissions: PermissionService,
    private readonly workspaceRepo: WorkspaceRepository,
    private readonly runner: JobRunner,
    private readonly previews: TemplatePreviews,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A template as the web client lists it: `workspace_id` is its read-only preview workspace and
   * `open_application` the application the preview opens (both null until the preview is built,
   * or when previews are turned off).
   */
  json(template: Template, preview?: TemplatePreviewEntity): TemplateJson {
    return {
      id: template.id,
      name: template.name,
      slug: template.slug,
      icon: template.icon,
      keywords: template.keywords,
      workspace_id: preview?.workspaceId ?? null,
      is_default: template.slug === this.config.defaultTemplate,
      open_application: preview?.openApplication ?? null,
    };
  }

  async list(): Promise<{ id: number; name: string; templates: TemplateJson[] }[]> {
    const previews = await this.previews.ready();
    return this.catalog.categories.map((category) => ({ id: category.id, name: category.name, templates: category.templates.map((t) => this.json(t, previews.get(t.slug))) }));
  }

  async get(slug: string): Promise<TemplateJson> {
    const template = this.catalog.bySlug(slug);
    if (!template) throw TemplateErrors.templateDoesNotExist();
    return this.json(template, (await this.previews.ready()).get(slug));
  }

  /** Checks in Baserow's order: the workspace exists (404), the template exists (404), the user is a member (400). */
  private async check(user: UserEntity, workspaceId: number, templateId: number): Promise<{ template: Template; workspace: WorkspaceEntity }> {
    const workspace = await this.workspaceRepo.findWorkspace(workspaceId);
    if (!workspace) throw Errors.workspaceDoesNotExist();
    const template = this.catalog.byId(templateId);
    if (!template) throw TemplateErrors.templateDoesNotExist();
    await this.permissions.require(user.id, W.createApplication, { workspaceId });
    return { template, workspace };
  }

  /** Installs the template's applications last in the workspace; `application_created` for each after commit. */
  async install(user: UserEntity, workspaceId: number, templateId: number, written?: RowsWritten): Promise<ApplicationJson[]> {
    // A long write: the applications are built hidden, in chunks, and shown together at the end.
    const { template } = await this.check(user, workspaceId, templateId);
    const installed = await this.applications.importDocuments(user, workspaceId, structuredClone(template.applications), written, (created) =>
      // Undone by trashing the applications, redone by restoring them (Baserow's install_template).
      this.applications.recordAction('install_template', workspaceId, { templateId, templateName: template.name, applicationIds: created.map((application) => application.id) }),
    );
    return this.applications.serialize(installed);
  }

  /** `install_template`: the job carries `workspace`, `template` and, once done, `installed_applications`. */
  async installAsync(user: UserEntity, workspaceId: number, templateId: number): Promise<Record<string, unknown>> {
    const { template, workspace } = await this.check(user, workspaceId, templateId);
    const job = await this.runner.start(user, 'install_template', { workspace: serializeWorkspace(workspace), template: await this.get(template.slug), installed_applications: [] }, async (progress) => ({
      installed_applications: await this.install(user, workspaceId, templateId, (done, total) => progress.set({ progress: Math.floor((done / total) * 99) })),
    }));
    return serializeJob(job);
  }
}
