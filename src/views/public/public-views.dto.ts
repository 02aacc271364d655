import { Field } from '../../core/validation/field';
import { DynamicQuery } from '../../core/validation/dynamic-query';
import { FILTER_PARAMETER, SEARCH_MODES } from '../../database/rows/rows.query';
import { GalleryRowsQuery, GridRowsQuery, KanbanRowsQuery } from '../views.dto';

export class PublicViewAuthDto {
  @Field({ kind: 'string', description: 'The password of the shared view.' })
  password: string;
}

/** A shared grid's rows: the members' grid parameters (`row_metadata` is not answered) and `group_by`. */
export class PublicGridRowsQuery extends GridRowsQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated visible fields to group by (sorted first, with `group_by_metadata`), e.g. `field_1,-field_2`.' })
  group_by?: string;
}

/** A shared gallery's rows: the members' gallery parameters (`row_metadata` is not answered) and the field selection. */
export class PublicGalleryRowsQuery extends GalleryRowsQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only these comma-separated fields (of the visible ones).' })
  include_fields?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'All visible fields but these comma-separated ones.' })
  exclude_fields?: string;
}

/** A shared kanban's rows: the members' kanban parameters and ad-hoc filters (ANDed with the saved ones). */
@DynamicQuery(FILTER_PARAMETER)
export class PublicKanbanRowsQuery extends KanbanRowsQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'A JSON filter tree on visible fields, ANDed with the saved filters.' })
  declare filters?: string;
}

export class PublicLookupQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only linked rows whose primary value contains this text.' })
  search?: string;

  @Field({ kind: 'choice', choices: SEARCH_MODES, required: false, description: 'How `search` matches (`compat` by default, or `full-text-with-count`).' })
  search_mode?: (typeof SEARCH_MODES)[number];

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page.' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Rows per page (at most the row page size limit).' })
  size?: number;
}
