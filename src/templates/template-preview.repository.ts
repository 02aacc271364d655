import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../core/database/dialect';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TemplatePreviewEntity } from './template-preview.entity';

/** The template previews' rows (`core_template`). */
@Injectable()
export class TemplatePreviewRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get rows() {
    return this.db.manager.getRepository(TemplatePreviewEntity);
  }

  all(): Promise<TemplatePreviewEntity[]> {
    return this.rows.find({ order: { id: 'ASC' } });
  }

  /** The previews that are built, by slug (one per slug once a sync has settled; the latest wins otherwise). */
  async ready(): Promise<Map<string, TemplatePreviewEntity>> {
    const rows = await this.rows.createQueryBuilder('t').where('t.export_hash IS NOT NULL').orderBy('t.id', 'ASC').getMany();
    return new Map(rows.map((row) => [row.slug, row]));
  }

  /** A preview being built for `slug` in `workspaceId` (not shown until `markReady`). */
  insertBuilding(slug: string, workspaceId: number): Promise<TemplatePreviewEntity> {
    return this.rows.save(this.rows.create({ slug, workspaceId, exportHash: null, openApplication: null, createdOn: new Date() }));
  }

  /** The slug's rows, locked until the transaction ends (on PostgreSQL: two instances finishing the same template take turns). */
  async lockSlug(slug: string): Promise<TemplatePreviewEntity[]> {
    const p = this.dialect.placeholder(1);
    await this.db.manager.query(`SELECT id FROM "core_template" WHERE slug = ${p} ORDER BY id${this.dialect.forUpdate}`, [slug]);
    return this.rows.find({ where: { slug }, order: { id: 'ASC' } });
  }

  markReady(id: number, exportHash: string, openApplication: number | null): Promise<unknown> {
    return this.rows.update({ id }, { exportHash, openApplication });
  }
}
