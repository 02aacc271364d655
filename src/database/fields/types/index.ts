import { AutonumberFieldType } from './autonumber.field-type';
import { CreatedByFieldType } from './created-by.field-type';
import { CreatedOnFieldType } from './created-on.field-type';
import { DurationFieldType } from './duration.field-type';
import { EmailFieldType } from './email.field-type';
import { FileFieldType } from './file.field-type';
import { LastModifiedByFieldType } from './last-modified-by.field-type';
import { LastModifiedFieldType } from './last-modified.field-type';
import { PasswordFieldType } from './password.field-type';
import { PhoneNumberFieldType } from './phone-number.field-type';
import { RatingFieldType } from './rating.field-type';
import { UrlFieldType } from './url.field-type';
import { UuidFieldType } from './uuid.field-type';
import { BooleanFieldType } from './boolean.field-type';
import { DateFieldType } from './date.field-type';
import { LinkRowFieldType } from './link-row.field-type';
import { LongTextFieldType } from './long-text.field-type';
import { MultipleCollaboratorsFieldType } from './multiple-collaborators.field-type';
import { MultipleSelectFieldType } from './multiple-select.field-type';
import { NumberFieldType } from './number.field-type';
import { SingleSelectFieldType } from './single-select.field-type';
import { TextFieldType } from './text.field-type';

/** Every field type of the core, registered by the database module (one file per type). */
export const FIELD_TYPES = [
  TextFieldType,
  LongTextFieldType,
  NumberFieldType,
  BooleanFieldType,
  DateFieldType,
  UrlFieldType,
  EmailFieldType,
  PhoneNumberFieldType,
  RatingFieldType,
  DurationFieldType,
  UuidFieldType,
  AutonumberFieldType,
  PasswordFieldType,
  CreatedOnFieldType,
  LastModifiedFieldType,
  CreatedByFieldType,
  LastModifiedByFieldType,
  LinkRowFieldType,
  SingleSelectFieldType,
  MultipleSelectFieldType,
  MultipleCollaboratorsFieldType,
  FileFieldType,
];
