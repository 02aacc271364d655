import { CalendarViewType } from './calendar.view-type';
import { FormViewType } from './form.view-type';
import { GalleryViewType } from './gallery.view-type';
import { GridViewType } from './grid.view-type';
import { KanbanViewType } from './kanban.view-type';
import { TimelineViewType } from './timeline.view-type';

/** Every view type of the core, registered by the views module (one file per type). */
export const VIEW_TYPES = [GridViewType, GalleryViewType, FormViewType, KanbanViewType, CalendarViewType, TimelineViewType];
