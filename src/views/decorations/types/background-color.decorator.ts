import { Injectable } from '@nestjs/common';
import type { DecoratorType } from '../decorator-type';

/** `background_color`: the row or card takes the colour as its background. */
@Injectable()
export class BackgroundColorDecoratorType implements DecoratorType {
  readonly type = 'background_color';
}
