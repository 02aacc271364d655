import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { Dialect } from '../database/dialect';

const generate = () => randomBytes(48).toString('base64url');

/** The one generated secret of all instances sharing a PostgreSQL database. */
export class InstanceSecretRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly dialect: Dialect,
  ) {}

  /** Inserts a secret unless one exists, then reads the stored one: two instances starting together agree. */
  async getOrCreate(): Promise<string> {
    const p = (n: number) => this.dialect.placeholder(n);
    await this.dataSource.query(`INSERT INTO instance_secret (id, secret) VALUES (1, ${p(1)}) ON CONFLICT (id) DO NOTHING`, [generate()]);
    const rows: { secret: string }[] = await this.dataSource.query('SELECT secret FROM instance_secret WHERE id = 1');
    return rows[0].secret;
  }
}

/** A secret generated on first start and kept under the data folder (one SQLite instance). */
function secretFile(dataDir: string): string {
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const generated = generate();
  writeFileSync(file, generated + '\n', { mode: 0o600 });
  return generated;
}

/**
 * The instance secret, resolved once at start-up before anything signs: SECRET_KEY when
 * configured, else the database row on PostgreSQL (shared by every instance), else the file.
 */
export async function resolveInstanceSecret(config: AppConfig, dataSource: DataSource, dialect: Dialect): Promise<string> {
  if (config.secretKey) return config.secretKey;
  if (dialect.name === 'postgres') return new InstanceSecretRepository(dataSource, dialect).getOrCreate();
  return secretFile(config.dataDir);
}
