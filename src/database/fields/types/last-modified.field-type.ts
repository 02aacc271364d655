import { Injectable } from '@nestjs/common';
import { SystemDateFieldType } from './created-on.field-type';

/** `last_modified`: when a cell of the row last changed. */
@Injectable()
export class LastModifiedFieldType extends SystemDateFieldType {
  readonly type = 'last_modified';
  protected readonly systemColumn = 'updated_on';
}
