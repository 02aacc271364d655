import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApplicationDocument } from '../applications/application-type';
import { APP_CONFIG, AppConfig } from '../core/config/config';

/** A template file of `TEMPLATES_DIR`: its catalogue entry and the serialized applications it installs. */
export interface TemplateFile {
  name: string;
  slug: string;
  icon?: string;
  keywords?: string[];
  categories: string[];
  /** Index in `applications` of the application the web client opens after installing (absent: the first). */
  open_application?: number;
  applications: ApplicationDocument[];
}

export interface Template {
  id: number;
  name: string;
  slug: string;
  icon: string;
  keywords: string;
  categories: string[];
  openApplication: number;
  applications: ApplicationDocument[];
}

export interface TemplateCategory {
  id: number;
  name: string;
  templates: Template[];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The templates, read once at start-up from `TEMPLATES_DIR` (one `<slug>.json` per template).
 * Ids follow the slugs' order and categories' names' order, so they stay the same between
 * starts with the same files. A file that is not a template is logged and left out.
 */
@Injectable()
export class TemplateCatalog {
  private readonly logger = new Logger(TemplateCatalog.name);
  readonly templates: Template[];
  readonly categories: TemplateCategory[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const files = this.read(config.templatesDir).sort((a, b) => a.slug.localeCompare(b.slug));
    this.templates = files.map((file, index) => ({
      id: index + 1,
      name: file.name,
      slug: file.slug,
      icon: file.icon ?? 'iconoir-table',
      keywords: (file.keywords ?? []).join(', '),
      categories: file.categories,
      openApplication: file.open_application ?? 0,
      applications: file.applications,
    }));
    const names = [...new Set(this.templates.flatMap((t) => t.categories))].sort((a, b) => a.localeCompare(b));
    this.categories = names.map((name, index) => ({ id: index + 1, name, templates: this.templates.filter((t) => t.categories.includes(name)) }));
  }

  byId(id: number): Template | undefined {
    return this.templates.find((t) => t.id === id);
  }

  bySlug(slug: string): Template | undefined {
    return this.templates.find((t) => t.slug === slug);
  }

  private read(dir: string): TemplateFile[] {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      this.logger.warn(`No templates: ${dir} cannot be read.`);
      return [];
    }
    const result: TemplateFile[] = [];
    for (const name of names) {
      try {
        const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as TemplateFile;
        const problem = templateProblem(file);
        if (problem) throw new Error(problem);
        if (result.some((t) => t.slug === file.slug)) throw new Error(`the slug ${file.slug} is taken`);
        result.push(file);
      } catch (error) {
        this.logger.error(`The template ${name} is left out: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return result;
  }
}

function templateProblem(file: TemplateFile): string | null {
  if (!file || typeof file !== 'object') return 'not an object';
  if (typeof file.name !== 'string' || !file.name.trim()) return 'no name';
  if (typeof file.slug !== 'string' || !SLUG.test(file.slug)) return 'no slug of lowercase words and dashes';
  if (!Array.isArray(file.categories) || !file.categories.length || file.categories.some((c) => typeof c !== 'string')) return 'no categories';
  if (file.keywords !== undefined && (!Array.isArray(file.keywords) || file.keywords.some((k) => typeof k !== 'string'))) return 'keywords must be strings';
  if (!Array.isArray(file.applications) || !file.applications.length) return 'no applications';
  if (file.applications.some((a) => !a || typeof a.type !== 'string' || typeof a.name !== 'string')) return 'an application without type or name';
  return null;
}
