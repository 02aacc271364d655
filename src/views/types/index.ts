import { GridViewType } from './grid.view-type';

/** Every view type of the core, registered by the views module (one file per type). */
export const VIEW_TYPES = [GridViewType];
