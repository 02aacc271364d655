import { TypeRegistry } from '../core/registry/type-registry';
import { Injectable } from '@nestjs/common';
import type { UserEntity } from '../users/user.entity';
import type { ApplicationEntity } from './application.entity';

/** A serialized application: its type, its name and its type's own keys (a database's tables). */
export interface ApplicationDocument {
  type: string;
  name: string;
  [key: string]: unknown;
}

/**
 * A part of a streamed export (a snapshot): first the document with its tables' rows left out
 * (`tables[].rows` empty), then batches of rows, each of the document table `table`.
 */
export type ApplicationPart<D = ApplicationDocument, R = Record<string, unknown>> = { kind: 'document'; document: D } | { kind: 'rows'; table: number; rows: R[] };

/** A table's rows read in batches of `size`, as often as an import needs them. */
export interface RowBatches<R = Record<string, unknown>> {
  readonly count: number;
  batches(size: number): AsyncIterable<R[]>;
}

/**
 * The rows of a document's table kept outside the document (its tables' `rows` empty): read in
 * batches, as often as the import needs (a snapshot's file). Undefined for a table: its rows are
 * in the document.
 */
export type DocumentRows = (tableId: number) => RowBatches | undefined;

/** Told after each chunk of rows a long write wrote (a job's progress; it throws to cancel). */
export type RowsWritten = (done: number, total: number) => Promise<void>;

/**
 * One kind of application (Baserow's application type registry). A module adds a type by
 * registering an implementation with ApplicationTypeRegistry when it starts.
 */
export interface ApplicationType {
  readonly type: string;
  /** The type's own serializer keys for each application (e.g. a database's `tables`). */
  extraKeys(applications: ApplicationEntity[]): Promise<Map<number, Record<string, unknown>>>;
  /** Called inside the unit of work that created the application. */
  afterCreate?(application: ApplicationEntity, user: UserEntity, options: { initWithData: boolean }): Promise<void>;
  /** The application with its data as a serialized document (duplication, templates, export). */
  exportSerialized?(application: ApplicationEntity): Promise<ApplicationDocument>;
  /** As `exportSerialized`, streamed: memory holds one batch of rows at a time. */
  exportParts?(application: ApplicationEntity): AsyncIterable<ApplicationPart>;
  /**
   * Fills a new application from a serialized document of this type: inside the caller's unit
   * of work, or, outside one, as a long write into the application, which is hidden meanwhile.
   */
  importSerialized?(application: ApplicationEntity, document: ApplicationDocument, user: UserEntity | null, written?: RowsWritten, rows?: DocumentRows): Promise<void>;
  /** Called inside the unit of work that deletes the application for good (drops its data). */
  beforePermanentDelete?(application: ApplicationEntity): Promise<void>;
}

@Injectable()
export class ApplicationTypeRegistry extends TypeRegistry<ApplicationType> {}
