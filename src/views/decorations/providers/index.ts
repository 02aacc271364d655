import type { DecoratorValueProviderType } from '../decorator-type';
import { ConditionalColorValueProviderType } from './conditional-color.provider';
import { SingleSelectColorValueProviderType } from './single-select-color.provider';

/** Every decorator value provider, registered by the views module. */
export const DECORATOR_VALUE_PROVIDER_TYPES: (new (...args: never[]) => DecoratorValueProviderType)[] = [
  SingleSelectColorValueProviderType,
  ConditionalColorValueProviderType,
];
