import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { JobRunner } from '../../jobs/job-runner';
import { serializeJob } from '../../jobs/jobs.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseSerializer } from '../serialization/database-serializer';
import { TableContextService } from '../table-context';
import { FieldChange, FieldsService } from './fields.service';

/** Field work that runs as a job polled through `/api/jobs/{id}/`: duplication. */
@Injectable()
export class FieldJobsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly fields: FieldsService,
    private readonly contexts: TableContextService,
    private readonly serializer: DatabaseSerializer,
    private readonly runner: JobRunner,
  ) {}

  /**
   * `duplicate_field`: answers the pending job with `original_field`; the job ends with
   * `duplicated_field` (with its `related_fields`). One running per user. The request is refused
   * when the user may not duplicate the field (Baserow's DuplicateFieldJobType.prepare_values), not the job.
   */
  async duplicateAsync(user: UserEntity, fieldId: number, duplicateData: boolean): Promise<Record<string, unknown>> {
    const original = await this.fields.get(user, fieldId, T.duplicateField);
    const job = await this.runner.start(user, 'duplicate_field', { original_field: original, duplicated_field: null }, async () => {
      const change = await this.duplicate(user, fieldId, duplicateData);
      return { duplicated_field: await this.fields.withRelated(change) };
    });
    return serializeJob(job);
  }

  /**
   * Copies a field through the serializer, as Baserow's `duplicate_field`: named "<name> 2"
   * (or the next free number), with its properties and select options (new ids), a link with
   * its own related field in the linked table, and with `duplicateData` its cells (computed
   * fields compute theirs); views show it right after the original with the same options.
   */
  async duplicate(user: UserEntity, fieldId: number, duplicateData: boolean): Promise<FieldChange> {
    return this.db.run(async () => {
      const { field, context } = await this.fields.require(user, fieldId, T.duplicateField);
      const doc = await this.serializer.exportField(field, context);
      const names = new Set(context.fields.map((f) => f.name));
      const base = field.name.slice(0, 240);
      let number = 2;
      while (names.has(`${base} ${number}`)) number++;
      // As Baserow, read-only cells (uuid, autonumber…) are made anew rather than copied.
      const rows = duplicateData && !this.fields.types.of(field).readOnly ? await this.serializer.exportRows(context, [field]) : null;
      const change = await this.serializer.importFieldInto(context, { ...doc, name: `${base} ${number}`, primary: false }, rows, user.id);
      await this.serializer.fieldDuplicated(await this.contexts.reload(context), field.id, change.field.id);
      this.fields.recordAction('duplicate_field', context, { fieldId: change.field.id, originalFieldId: field.id, originalFieldName: field.name, withData: duplicateData });
      return change;
    });
  }
}
