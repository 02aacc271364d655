import { Injectable } from '@nestjs/common';
import { ApiError } from '../core/errors/api-error';
import { isValidTimeZone, localDateString } from '../database/filters/date-filter-value';
import { AdminRepository } from './admin.repository';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const PERIODS: [string, number][] = [
  ['last_24_hours', DAY],
  ['last_7_days', 7 * DAY],
  ['last_30_days', 30 * DAY],
];

export interface PerDay {
  date: string;
  count: number;
}

/** Baserow's AdminDashboardSerializer. */
export interface AdminDashboardJson {
  total_users: number;
  total_workspaces: number;
  total_applications: number;
  new_users_per_day: PerDay[];
  active_users_per_day: PerDay[];
  [count: string]: number | PerDay[];
}

/**
 * The admin dashboard (Baserow's AdminDashboardHandler): totals, new users (`date_joined`) and
 * active users (`last_login`: a user counts in each period their last sign-in falls in) over
 * the last 24 hours, 7 and 30 days, the `previous_` period before each, and per day over the
 * last 30 days in the requested time zone (days without any left out).
 */
@Injectable()
export class AdminDashboardService {
  constructor(private readonly repo: AdminRepository) {}

  async dashboard(timezone: string | undefined, now = new Date()): Promise<AdminDashboardJson> {
    const zone = timezone || 'UTC';
    if (!isValidTimeZone(zone)) throw new ApiError('UNKNOWN_TIME_ZONE_ERROR', 400, `The timezone ${timezone} is not supported.`);
    const totals = {
      total_users: await this.repo.activeUserCount(),
      total_workspaces: await this.repo.liveWorkspaceCount(),
      total_applications: await this.repo.liveApplicationCount(),
    };
    // Keys in the serializer's order: the periods, the previous periods, then the days.
    const counts: Record<string, number> = {};
    const days: Record<string, PerDay[]> = {};
    for (const [prefix, column] of [['new_users', 'date_joined'], ['active_users', 'last_login']] as const) {
      for (const [name, span] of PERIODS) counts[`${prefix}_${name}`] = await this.repo.countUsersBetween(column, new Date(now.getTime() - span), now);
      for (const [name, span] of PERIODS) {
        counts[`previous_${prefix}_${name}`] = await this.repo.countUsersBetween(column, new Date(now.getTime() - 2 * span), new Date(now.getTime() - span));
      }
      days[`${prefix}_per_day`] = perDay(await this.repo.instantsBetween(column, new Date(now.getTime() - 30 * DAY), now), zone);
    }
    const answer = { ...totals, ...counts, new_users_per_day: days.new_users_per_day, active_users_per_day: days.active_users_per_day };
    return answer;
  }
}

function perDay(instants: Date[], zone: string): PerDay[] {
  const counts = new Map<string, number>();
  for (const instant of instants) {
    const day = localDateString(instant, zone);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, count]) => ({ date, count }));
}
