import type { DecoratorType } from '../decorator-type';
import { BackgroundColorDecoratorType } from './background-color.decorator';
import { LeftBorderColorDecoratorType } from './left-border-color.decorator';

/** Every decorator type, registered by the views module. */
export const DECORATOR_TYPES: (new (...args: never[]) => DecoratorType)[] = [LeftBorderColorDecoratorType, BackgroundColorDecoratorType];
