import { Injectable } from '@nestjs/common';
import { parsePhoneNumber } from '../values/text';
import { CheckedTextFieldType } from './base';

/** `phone_number`: digits and the usual punctuation, 1–100 characters; empty cells are `""`. */
@Injectable()
export class PhoneNumberFieldType extends CheckedTextFieldType {
  readonly type = 'phone_number';
  protected readonly parse = parsePhoneNumber;
}
