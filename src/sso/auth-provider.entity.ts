import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

/** An auth provider (Baserow's `AuthProviderModel`): its type's own settings are in `settings`. */
@Entity('core_authprovidermodel')
export class AuthProviderEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  domain: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** The type's fields (see each type's `fields`); a client secret is sealed (TokenKeyCipher). */
  @JsonColumn({ default: '{}' })
  settings: Record<string, unknown>;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}

/** A user an auth provider signed in (Baserow's `AuthProviderModel.users`). */
@Entity('core_authprovidermodel_users')
export class AuthProviderUserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'authprovidermodel_id', type: 'integer' })
  providerId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;
}

/** A sign-in started at the identity provider and not finished yet; found by the hash of its key, used once. */
@Entity('sso_pending_sign_in')
export class PendingSignInEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'provider_id', type: 'integer' })
  providerId: number;

  @JsonColumn({ default: '{}' })
  data: Record<string, unknown>;

  @DateTimeColumn({ name: 'expires_at' })
  expiresAt: Date;
}

/** A SAML assertion already used to sign in, kept until it would have expired anyway. */
@Entity('sso_used_assertion')
export class UsedAssertionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'assertion_id', type: 'varchar', length: 255 })
  assertionId: string;

  @DateTimeColumn({ name: 'expires_at' })
  expiresAt: Date;
}
