import { Injectable } from '@nestjs/common';
import type { DecoratorType } from '../decorator-type';

/** `left_border_color`: a coloured bar on the left of a row or card. */
@Injectable()
export class LeftBorderColorDecoratorType implements DecoratorType {
  readonly type = 'left_border_color';
}
