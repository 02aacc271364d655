import { Injectable } from '@nestjs/common';
import { parseEmail } from '../values/text';
import { CheckedTextFieldType } from './base';

/** `email`: a permissively checked address (≤ 254); empty cells are `""`, never null. */
@Injectable()
export class EmailFieldType extends CheckedTextFieldType {
  readonly type = 'email';
  protected readonly parse = parseEmail;
}
