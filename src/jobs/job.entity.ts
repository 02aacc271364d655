import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../core/database/columns';

export type JobState = 'pending' | 'started' | 'finished' | 'failed' | 'cancelled';
export const JOB_STATES: JobState[] = ['pending', 'started', 'finished', 'failed', 'cancelled'];

/** A background job (duplicate, import); type-specific keys live in `data`. */
@Entity('job')
export class JobEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Null for a job nobody signed in started (a shared view's public export). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 32, default: 'pending' })
  state: JobState;

  @Column({ name: 'progress_percentage', type: 'integer', default: 0 })
  progressPercentage: number;

  @Column({ name: 'human_readable_error', type: 'text', default: '' })
  humanReadableError: string;

  /** The socket of the request that started the job, excluded from the job's broadcasts. */
  @Column({ name: 'web_socket_id', type: 'varchar', length: 64, nullable: true })
  webSocketId: string | null;

  @JsonColumn({ default: '{}' })
  data: Record<string, unknown>;

  @DateTimeColumn({ name: 'created_on' })
  createdOn: Date;

  @DateTimeColumn({ name: 'updated_on' })
  updatedOn: Date;
}
