import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { JsonColumn } from '../../core/database/columns';

/** A decoration of a view: a decorator type fed by a value provider configured by `valueProviderConf`. */
@Entity('database_view_decoration')
export class ViewDecorationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'view_id', type: 'integer' })
  viewId: number;

  @Column({ type: 'varchar', length: 255 })
  type: string;

  @Column({ name: 'value_provider_type', type: 'varchar', length: 255, default: "''" })
  valueProviderType: string;

  @JsonColumn({ name: 'value_provider_conf', default: '{}' })
  valueProviderConf: Record<string, any>;

  @Column({ type: 'integer', default: 32767 })
  order: number;
}

export type DecorationJson = {
  id: number;
  view: number;
  type: string;
  value_provider_type: string;
  value_provider_conf: Record<string, unknown>;
  order: number;
};

/** Baserow's ViewDecorationSerializer. */
export function decorationJson(d: ViewDecorationEntity): DecorationJson {
  return { id: d.id, view: d.viewId, type: d.type, value_provider_type: d.valueProviderType, value_provider_conf: d.valueProviderConf, order: d.order };
}
