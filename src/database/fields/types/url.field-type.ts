import { Injectable } from '@nestjs/common';
import { parseUrl } from '../values/text';
import { CheckedTextFieldType } from './base';

/** `url`: a leniently checked URL; empty cells are `""`, never null. */
@Injectable()
export class UrlFieldType extends CheckedTextFieldType {
  readonly type = 'url';
  protected readonly parse = parseUrl;
}
