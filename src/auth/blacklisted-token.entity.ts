import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../core/database/columns';

/** Refresh tokens given up through token-blacklist, kept until they would have expired anyway. */
@Entity('blacklisted_token')
export class BlacklistedTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  jti: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @DateTimeColumn({ name: 'expires_at' })
  expiresAt: Date;
}
