import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

@Entity('user')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Normalized e-mail address; Baserow calls it `username`. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @Column({ name: 'first_name', type: 'varchar', length: 150 })
  firstName: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'is_staff', type: 'boolean', default: false })
  isStaff: boolean;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'varchar', length: 10, default: 'en' })
  language: string;

  @Column({ name: 'email_notification_frequency', type: 'varchar', length: 16, default: 'instant' })
  emailNotificationFrequency: string;

  @Column({ name: 'email_verified', type: 'boolean', default: false })
  emailVerified: boolean;

  @Column({ name: 'completed_onboarding', type: 'boolean', default: false })
  completedOnboarding: boolean;

  @JsonColumn({ name: 'completed_guided_tours', default: '[]' })
  completedGuidedTours: string[];

  @DateTimeColumn({ name: 'date_joined' })
  dateJoined: Date;

  @DateTimeColumn({ name: 'last_login', nullable: true })
  lastLogin: Date | null;

  /** Tokens issued before this moment are no longer accepted (password change). */
  @DateTimeColumn({ name: 'password_changed_at', nullable: true })
  passwordChangedAt: Date | null;

  /** Set when the account is scheduled for deletion; cleared when the user signs in again. */
  @DateTimeColumn({ name: 'deletion_scheduled_at', nullable: true })
  deletionScheduledAt: Date | null;
}
