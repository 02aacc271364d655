import { Field } from '../core/validation/field';

/** `page`, `size`, `search`, `sorts` of Baserow's AdminListingView. */
export class AdminListQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only the entries whose id or name (or e-mail) contains this, case-insensitively.' })
  search?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated `+attribute` (ascending) or `-attribute` (descending); by id when absent.' })
  sorts?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (1 when absent or invalid; past the end: no results).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Entries per page (100 when absent or invalid; at most 100).' })
  size?: number;
}

export class AdminDashboardQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'An IANA time zone: the days of the per-day counts (UTC when absent or empty).' })
  timezone?: string;
}

const NAME = { kind: 'string', max: 150 } as const;

/** Baserow's UserAdminCreateSerializer. */
export class AdminCreateUserDto {
  @Field({ kind: 'email', description: 'The e-mail address, which is also the username.' })
  username: string;

  @Field({ ...NAME })
  name: string;

  @Field({ kind: 'password' })
  password: string;

  @Field({ kind: 'bool', required: false, default: true, description: 'Whether the user may sign in. Set this to false instead of deleting accounts.' })
  is_active: boolean;

  @Field({ kind: 'bool', required: false, default: false, description: "Whether the user is staff: every workspace's admin pages and the instance settings." })
  is_staff: boolean;
}

/** Baserow's UserAdminUpdateSerializer (partial). */
export class AdminUpdateUserDto {
  @Field({ kind: 'email', required: false })
  username?: string;

  @Field({ ...NAME, required: false })
  name?: string;

  @Field({ kind: 'password', required: false })
  password?: string;

  @Field({ kind: 'bool', required: false })
  is_active?: boolean;

  @Field({ kind: 'bool', required: false })
  is_staff?: boolean;
}
