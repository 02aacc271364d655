import { Injectable } from '@nestjs/common';
import { Caches, MetadataCache } from '../core/cache/caches';
import { FieldWriteRule, FieldWriteRules, PlacedFieldWriteRule } from '../permissions/field-write-rules';
import { FieldPermissionRepository } from './field-permission.repository';

/** The field-permissions module's `FieldWriteRules`: a table's rules, cached by metadata version (warm row writes read none). */
@Injectable()
export class FieldWriteRulesFromTable extends FieldWriteRules {
  private readonly cache: MetadataCache<number, ReadonlyMap<number, FieldWriteRule>>;
  private readonly byWorkspace: MetadataCache<number, readonly PlacedFieldWriteRule[]>;

  constructor(
    caches: Caches,
    private readonly repo: FieldPermissionRepository,
  ) {
    super();
    this.cache = caches.metadata<number, ReadonlyMap<number, FieldWriteRule>>('field-write-rules');
    this.byWorkspace = caches.metadata<number, readonly PlacedFieldWriteRule[]>('workspace-field-write-rules');
  }

  ofTable(tableId: number): Promise<ReadonlyMap<number, FieldWriteRule>> {
    return this.cache.get(tableId, () => this.repo.ofTable(tableId));
  }

  ofWorkspace(workspaceId: number): Promise<readonly PlacedFieldWriteRule[]> {
    return this.byWorkspace.get(workspaceId, () => this.repo.ofWorkspace(workspaceId));
  }
}
