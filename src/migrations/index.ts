import { InitialSchema1732000000000 } from './1732000000000-InitialSchema';
import { DatabaseCore1733000000000 } from './1733000000000-DatabaseCore';
import { InstanceSecret1735100000000 } from './1735100000000-InstanceSecret';
import { DatabaseTokens1736100000000 } from './1736100000000-DatabaseTokens';
import { RowHistory1736200000000 } from './1736200000000-RowHistory';
import { RowComments1736300000000 } from './1736300000000-RowComments';
import { Trash1736400000000 } from './1736400000000-Trash';
import { ViewFilters1736500000000 } from './1736500000000-ViewFilters';
import { ViewDecorations1736600000000 } from './1736600000000-ViewDecorations';
import { FieldDependencies1736700000000 } from './1736700000000-FieldDependencies';
import { UserFiles1736800000000 } from './1736800000000-UserFiles';
import { SearchIndex1736900000000 } from './1736900000000-SearchIndex';
import { FormulaRegexReplace1737021000000 } from './1737021000000-FormulaRegexReplace';
import { Webhooks1737100000000 } from './1737100000000-Webhooks';
import { Notifications1737400000000 } from './1737400000000-Notifications';
import { Actions1737300000000 } from './1737300000000-Actions';
import { InstanceSettings1737500000000 } from './1737500000000-InstanceSettings';
import { Snapshots1737600000000 } from './1737600000000-Snapshots';
import { WorkspaceImportExport1737700000000 } from './1737700000000-WorkspaceImportExport';
import { RoleAssignments1737800000000 } from './1737800000000-RoleAssignments';
import { Teams1737810000000 } from './1737810000000-Teams';
import { AuditLog1737820000000 } from './1737820000000-AuditLog';
import { SingleSignOn1737830000000 } from './1737830000000-SingleSignOn';
import { FieldPermissions1737840000000 } from './1737840000000-FieldPermissions';
import { CalendarIcalSlug1737850000000 } from './1737850000000-CalendarIcalSlug';
import { AnonymousJobs1737860000000 } from './1737860000000-AnonymousJobs';
import { McpEndpoints1737870000000 } from './1737870000000-McpEndpoints';
import { TemplatePreviews1737880000000 } from './1737880000000-TemplatePreviews';

/**
 * The metadata schema's history: one ordered series for the whole app, declared by the app module.
 * It is not cut by module: the first migrations create the tables of several modules at once and
 * later ones reach across them (foreign keys to `user` and `workspace`, a column in every user
 * table), and TypeORM knows an install's executed migrations by these class names, so they stay
 * as they ran. A module with tables of its own (an extension) declares its own migrations with its
 * entities; TypeORM runs all of them in timestamp order. They use TypeORM's schema API, so one
 * series serves both databases.
 */
export const MIGRATIONS = [
  InitialSchema1732000000000,
  DatabaseCore1733000000000,
  InstanceSecret1735100000000,
  DatabaseTokens1736100000000,
  RowHistory1736200000000,
  RowComments1736300000000,
  Trash1736400000000,
  ViewFilters1736500000000,
  ViewDecorations1736600000000,
  FieldDependencies1736700000000,
  UserFiles1736800000000,
  SearchIndex1736900000000,
  FormulaRegexReplace1737021000000,
  Webhooks1737100000000,
  Notifications1737400000000,
  Actions1737300000000,
  InstanceSettings1737500000000,
  Snapshots1737600000000,
  WorkspaceImportExport1737700000000,
  RoleAssignments1737800000000,
  Teams1737810000000,
  AuditLog1737820000000,
  SingleSignOn1737830000000,
  FieldPermissions1737840000000,
  CalendarIcalSlug1737850000000,
  AnonymousJobs1737860000000,
  McpEndpoints1737870000000,
  TemplatePreviews1737880000000,
];
