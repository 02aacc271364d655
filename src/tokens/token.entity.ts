import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TokenOperation } from '../auth/decorators';
import { DateTimeColumn } from '../core/database/columns';

/**
 * A database token: a user's key to the row endpoints of one workspace. The key itself is
 * never stored in plain text (spec decision 5): requests find the token by the key's SHA-256,
 * and the key is kept encrypted with the instance's `token-encryption` key to be shown again.
 */
@Entity('database_token')
export class DatabaseTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  /** Hex SHA-256 of the key: what an `Authorization: Token <key>` request is looked up by. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** AES-256-GCM of the key: `<iv>.<tag>.<ciphertext>` in base64url. */
  @Column({ name: 'key_encrypted', type: 'varchar', length: 255 })
  keyEncrypted: string;

  /** Bumped by every change of the permissions, in the same transaction: the permission cache is keyed by it. */
  @Column({ type: 'integer', default: 0 })
  version: number;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;
}

export type { TokenOperation };
export const TOKEN_OPERATIONS: readonly TokenOperation[] = ['create', 'read', 'update', 'delete'];

/**
 * One grant of a token for one operation: the whole workspace (no database, no table), every
 * table of a database, or one table.
 */
@Entity('database_token_permission')
export class DatabaseTokenPermissionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_id', type: 'integer' })
  tokenId: number;

  @Column({ type: 'varchar', length: 6 })
  type: TokenOperation;

  @Column({ name: 'database_id', type: 'integer', nullable: true })
  databaseId: number | null;

  @Column({ name: 'table_id', type: 'integer', nullable: true })
  tableId: number | null;
}
