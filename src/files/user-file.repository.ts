import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { parseUserFileName, UserFileEntity } from './user-file.entity';

@Injectable()
export class UserFileRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get repo() {
    return this.db.manager.getRepository(UserFileEntity);
  }

  /** The file uploaded before under the same name with the same content (Baserow reuses it). */
  findSame(originalName: string, sha256Hash: string): Promise<UserFileEntity | null> {
    return this.repo.findOne({ where: { originalName, sha256Hash }, order: { id: 'ASC' } });
  }

  async nameTaken(unique: string, sha256Hash: string, originalExtension: string): Promise<boolean> {
    return (await this.repo.count({ where: { unique, sha256Hash, originalExtension }, take: 1 })) > 0;
  }

  insert(file: Omit<UserFileEntity, 'id'>): Promise<UserFileEntity> {
    return this.repo.save(this.repo.create(file));
  }

  findById(id: number): Promise<UserFileEntity | null> {
    return this.repo.findOneBy({ id });
  }

  async findByName(name: string): Promise<UserFileEntity | null> {
    return (await this.findByNames([name])).get(name) ?? null;
  }

  /** The user files of the names that name one, by name. */
  async findByNames(names: string[]): Promise<Map<string, UserFileEntity>> {
    const found = new Map<string, UserFileEntity>();
    const parts = [...new Set(names)].map((name) => parseUserFileName(name)).filter((p) => p !== null);
    for (let i = 0; i < parts.length; i += 300) {
      const chunk = parts.slice(i, i + 300);
      const rows = await this.repo.find({ where: { unique: In(chunk.map((p) => p.unique)) } });
      for (const row of rows) {
        const name = `${row.unique}_${row.sha256Hash}.${row.originalExtension}`;
        if (chunk.some((p) => p.unique === row.unique && p.sha256Hash === row.sha256Hash && p.originalExtension === row.originalExtension)) found.set(name, row);
      }
    }
    return found;
  }

  /** Files uploaded before `before`, oldest first, from the one after `afterId`. */
  listUploadedBefore(before: Date, afterId: number, limit: number): Promise<UserFileEntity[]> {
    return this.repo
      .createQueryBuilder('f')
      .where('f.uploaded_at < :before', { before: before.toISOString() })
      .andWhere('f.id > :afterId', { afterId })
      .orderBy('f.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  async delete(ids: number[]): Promise<void> {
    if (ids.length) await this.repo.delete({ id: In(ids) });
  }
}
