import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { HiddenBuilds } from '../../core/database/long-write';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { TableEntity } from '../table.entity';
import { FieldEntity, SelectOptionEntity } from './field.entity';

@Injectable()
export class FieldRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(FieldEntity);
  }

  private get options() {
    return this.db.manager.getRepository(SelectOptionEntity);
  }

  /** Live fields of a table: the primary first, then by order and id. */
  ofTable(tableId: number): Promise<FieldEntity[]> {
    return this.repo.find({ where: { tableId, trashed: false }, order: { primary: 'DESC', order: 'ASC', id: 'ASC' } });
  }

  /**
   * Live fields of the live tables of a database, by table id (primary first, then by order);
   * with the tables the caller builds hidden (a long write's formulas read their fields).
   */
  async ofDatabase(databaseId: number): Promise<Map<number, FieldEntity[]>> {
    const fields = await this.repo
      .createQueryBuilder('f')
      .innerJoin(TableEntity, 't', 't.id = f.table_id')
      .where('t.database_id = :databaseId AND (t.trashed = :no OR t.id IN (:...building)) AND f.trashed = :no', { databaseId, no: false, building: HiddenBuilds.tables() })
      .orderBy('f.primary', 'DESC')
      .addOrderBy('f.order', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
    const byTable = new Map<number, FieldEntity[]>();
    for (const field of fields) byTable.set(field.tableId, [...(byTable.get(field.tableId) ?? []), field]);
    return byTable;
  }

  /** Live link fields of the given tables that point at `tableId`. */
  async linksTo(tableId: number, tableIds: number[]): Promise<FieldEntity[]> {
    if (!tableIds.length) return [];
    const links = await this.repo.find({ where: { type: 'link_row', trashed: false, tableId: In(tableIds) } });
    return links.filter((field) => Number(field.properties.link_row_table_id) === tableId);
  }

  /** A field, trashed or not (the trash's lookups). */
  findAny(id: number): Promise<FieldEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** Every field of the table, trashed ones included. */
  allOfTable(tableId: number): Promise<FieldEntity[]> {
    return this.repo.find({ where: { tableId }, order: { id: 'ASC' } });
  }

  findLive(id: number): Promise<FieldEntity | null> {
    return this.repo.findOne({ where: { id, trashed: false } });
  }

  /** A live field with its live table. */
  async findWithTable(id: number): Promise<{ field: FieldEntity; table: TableEntity } | null> {
    const field = await this.findLive(id);
    if (!field) return null;
    const table = await this.db.manager.getRepository(TableEntity).findOne({ where: { id: field.tableId, trashed: false } });
    return table ? { field, table } : null;
  }

  create(values: Partial<FieldEntity>): Promise<FieldEntity> {
    return this.repo.save(this.repo.create({ description: null, dbIndex: false, fieldConstraints: [], properties: {}, createdOn: new Date(), trashed: false, ...values }));
  }

  /** Writes the field's changeable columns (the metadata cache shares entities, so callers save copies). */
  async save(field: FieldEntity): Promise<FieldEntity> {
    const { name, order, type, primary, description, dbIndex, fieldConstraints, properties, trashed } = field;
    await this.repo.update(field.id, { name, order, type, primary, description, dbIndex, fieldConstraints, properties, trashed });
    return field;
  }

  async delete(id: number): Promise<void> {
    await this.options.delete({ fieldId: id });
    await this.repo.delete(id);
  }

  async maxOrder(tableId: number): Promise<number> {
    const row = await this.repo.createQueryBuilder('f').select('MAX(f.order)', 'max').where('f.table_id = :tableId', { tableId }).getRawOne();
    return Number(row?.max ?? -1);
  }

  /** Select options of the fields, by field id, in their order. */
  async selectOptions(fieldIds: number[]): Promise<Map<number, SelectOptionEntity[]>> {
    const result = new Map<number, SelectOptionEntity[]>(fieldIds.map((id) => [id, []]));
    if (!fieldIds.length) return result;
    const rows = await this.options.find({ where: { fieldId: In(fieldIds) }, order: { order: 'ASC', id: 'ASC' } });
    for (const row of rows) result.get(row.fieldId)!.push(row);
    return result;
  }

  saveOptions(options: Partial<SelectOptionEntity>[]): Promise<SelectOptionEntity[]> {
    return this.options.save(options.map((o) => this.options.create(o)));
  }

  async deleteOptions(ids: number[]): Promise<void> {
    if (ids.length) await this.options.delete({ id: In(ids) });
  }
}
