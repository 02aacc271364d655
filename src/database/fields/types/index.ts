import { BooleanFieldType } from './boolean.field-type';
import { DateFieldType } from './date.field-type';
import { LongTextFieldType } from './long-text.field-type';
import { NumberFieldType } from './number.field-type';
import { TextFieldType } from './text.field-type';

/** Every field type of the core, registered by the database module (one file per type). */
export const FIELD_TYPES = [TextFieldType, LongTextFieldType, NumberFieldType, BooleanFieldType, DateFieldType];
