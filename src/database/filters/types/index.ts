import type { FilterType } from '../filter-type';
import { ARRAY_FILTERS } from './array.filter';
import { BooleanFilter } from './boolean.filter';
import { MultipleCollaboratorsHasFilter, MultipleCollaboratorsHasNotFilter, UserIsFilter, UserIsNotFilter } from './collaborator.filter';
import { HigherThanFilter, HigherThanOrEqualFilter, LowerThanFilter, LowerThanOrEqualFilter } from './comparison.filter';
import { ContainsFilter, ContainsNotFilter, ContainsWordFilter, DoesntContainWordFilter } from './contains.filter';
import { DATE_FILTERS } from './date.filter';
import { EmptyFilter, NotEmptyFilter } from './empty.filter';
import { EqualFilter, NotEqualFilter } from './equal.filter';
import { FilenameContainsFilter, FilesLowerThanFilter, HasFileTypeFilter } from './file.filter';
import { IsEvenAndWholeFilter } from './even.filter';
import { LengthIsLowerThanFilter } from './length.filter';
import { LinkRowContainsFilter, LinkRowHasFilter, LinkRowHasNotFilter, LinkRowNotContainsFilter } from './link-row.filter';
import {
  MultipleSelectHasFilter,
  MultipleSelectHasNotFilter,
  SingleSelectEqualFilter,
  SingleSelectIsAnyOfFilter,
  SingleSelectIsNoneOfFilter,
  SingleSelectNotEqualFilter,
} from './select.filter';

/** Every filter type of the core, registered by the database module (one file per type or family). */
export const FILTER_TYPES: (new (...args: never[]) => FilterType)[] = [
  EqualFilter,
  NotEqualFilter,
  ContainsFilter,
  ContainsNotFilter,
  ContainsWordFilter,
  DoesntContainWordFilter,
  LengthIsLowerThanFilter,
  HigherThanFilter,
  HigherThanOrEqualFilter,
  LowerThanFilter,
  LowerThanOrEqualFilter,
  IsEvenAndWholeFilter,
  ...DATE_FILTERS,
  SingleSelectEqualFilter,
  SingleSelectNotEqualFilter,
  SingleSelectIsAnyOfFilter,
  SingleSelectIsNoneOfFilter,
  MultipleSelectHasFilter,
  MultipleSelectHasNotFilter,
  LinkRowHasFilter,
  LinkRowHasNotFilter,
  LinkRowContainsFilter,
  LinkRowNotContainsFilter,
  MultipleCollaboratorsHasFilter,
  MultipleCollaboratorsHasNotFilter,
  UserIsFilter,
  UserIsNotFilter,
  FilenameContainsFilter,
  HasFileTypeFilter,
  FilesLowerThanFilter,
  BooleanFilter,
  EmptyFilter,
  NotEmptyFilter,
  ...ARRAY_FILTERS,
];
