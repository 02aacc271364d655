/** Every filter type of the core, registered by the database module (one file per type or family). */
export const FILTER_TYPES: (new (...args: never[]) => import('../filter-type').FilterType)[] = [];
