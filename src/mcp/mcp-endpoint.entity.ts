import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/**
 * An MCP endpoint (Baserow's `MCPEndpoint`): a user's key to the MCP server at `/mcp/<key>/…`,
 * acting as that user in one workspace. The key is never stored in plain text (spec decision 5,
 * as database tokens): it is found by its SHA-256 and kept encrypted to be shown again.
 */
@Entity('core_mcpendpoint')
export class McpEndpointEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  /** Hex SHA-256 of the key. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** AES-256-GCM of the key (`TokenKeyCipher`). */
  @Column({ name: 'key_encrypted', type: 'varchar', length: 255 })
  keyEncrypted: string;

  @DateTimeColumn({ name: 'created' })
  created: Date;
}
