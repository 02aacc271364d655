import { Injectable } from '@nestjs/common';
import { toApiDateTime } from '../core/database/columns';
import { Errors } from '../core/errors/api-error';
import type { UserEntity } from '../users/user.entity';
import { UserRepository } from '../users/user.repository';
import { instanceWideLicenses, SERVED_LICENSE_TYPES } from './served-licenses';

/** Baserow premium's `active_licenses` user data (`ActiveLicensesDataType`). */
export interface ActiveLicenses {
  instance_wide: Record<string, true>;
  per_workspace: Record<string, Record<string, true>>;
}

/** Baserow premium's LicenseSerializer. */
export interface LicenseJson {
  id: number;
  license_id: string;
  is_active: boolean;
  last_check: string | null;
  valid_from: string | null;
  valid_through: string;
  free_users_count: number;
  seats_taken: number;
  seats: number;
  application_users_taken: number | null;
  application_users: number | null;
  product_code: string;
  issued_on: string | null;
  issued_to_email: string;
  issued_to_name: string;
}

/** The licences of the instance: built in, one per served type, never registered nor expiring. */
@Injectable()
export class LicensesService {
  constructor(private readonly users: UserRepository) {}

  /** What every user gets, whatever their workspaces. */
  activeLicenses(): ActiveLicenses {
    return { instance_wide: instanceWideLicenses(), per_workspace: {} };
  }

  /**
   * `GET /api/licenses/` (staff): one built-in entry per served type, valid since the instance's
   * first account, with a seat for every user (all of them are on it; none is left free).
   */
  async list(actor: UserEntity): Promise<LicenseJson[]> {
    if (!actor.isStaff) throw Errors.notStaff();
    const [users, since] = await Promise.all([this.users.count(), this.users.firstJoinedAt()]);
    const from = toApiDateTime(since);
    return SERVED_LICENSE_TYPES.map((type, index) => ({
      id: index + 1,
      license_id: `rowspace-built-in-${type}`,
      is_active: true,
      last_check: null,
      valid_from: from,
      valid_through: '9999-12-31T23:59:59Z',
      free_users_count: 0,
      seats_taken: users,
      seats: users,
      // Baserow counts these for enterprise licences only.
      application_users_taken: null,
      application_users: null,
      product_code: type,
      issued_on: from,
      issued_to_email: '',
      issued_to_name: 'Built into Rowspace',
    }));
  }
}
