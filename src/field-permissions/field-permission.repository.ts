import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { FieldWriteRole, FieldWriteRule, PlacedFieldWriteRule } from '../permissions/field-write-rules';
import { FieldPermissionEntity } from './field-permission.entity';

/** The field permissions table: one rule per field (none: the default, EDITOR). */
@Injectable()
export class FieldPermissionRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(FieldPermissionEntity);
  }

  async ofField(fieldId: number): Promise<FieldWriteRule | null> {
    const found = await this.repo.findOne({ where: { fieldId } });
    return found && { role: found.role, allowInForms: found.allowInForms };
  }

  /** The rules of the table's fields that have one. */
  async ofTable(tableId: number): Promise<Map<number, FieldWriteRule>> {
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('p.field_id', 'field_id')
      .addSelect('p.role', 'role')
      .addSelect('p.allow_in_forms', 'allow_in_forms')
      .from('baserow_enterprise_fieldpermissions', 'p')
      .innerJoin('database_field', 'f', 'f.id = p.field_id')
      .where('f.table_id = :tableId', { tableId })
      .getRawMany<Record<string, unknown>>();
    return new Map(rows.map((r) => [Number(r.field_id), ruleOf(r)]));
  }

  /** The rules of the live fields of the workspace's live tables, with their places. */
  async ofWorkspace(workspaceId: number): Promise<PlacedFieldWriteRule[]> {
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('p.field_id', 'field_id')
      .addSelect('p.role', 'role')
      .addSelect('p.allow_in_forms', 'allow_in_forms')
      .addSelect('t.id', 'table_id')
      .addSelect('t.database_id', 'database_id')
      .from('baserow_enterprise_fieldpermissions', 'p')
      .innerJoin('database_field', 'f', 'f.id = p.field_id')
      .innerJoin('database_table', 't', 't.id = f.table_id')
      .innerJoin('application', 'a', 'a.id = t.database_id')
      .where('a.workspace_id = :workspaceId AND f.trashed = :f AND t.trashed = :f AND a.trashed = :f', { workspaceId, f: false })
      .orderBy('p.field_id')
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({ ...ruleOf(r), fieldId: Number(r.field_id), tableId: Number(r.table_id), databaseId: Number(r.database_id) }));
  }

  async save(fieldId: number, role: FieldWriteRole, allowInForms: boolean): Promise<void> {
    const now = new Date();
    const found = await this.repo.findOne({ where: { fieldId } });
    if (found) await this.repo.update({ id: found.id }, { role, allowInForms, updatedOn: now });
    else await this.repo.insert({ fieldId, role, allowInForms, createdOn: now, updatedOn: now });
  }

  async remove(fieldId: number): Promise<void> {
    await this.repo.delete({ fieldId });
  }
}

const ruleOf = (r: Record<string, unknown>): FieldWriteRule => ({ role: r.role as FieldWriteRole, allowInForms: r.allow_in_forms === true || r.allow_in_forms === 1 });
