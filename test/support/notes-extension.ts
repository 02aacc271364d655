import { Module } from '@nestjs/common';
import { Column, Entity, MigrationInterface, PrimaryGeneratedColumn, QueryRunner, Table } from 'typeorm';
import { OwnedSchemaModule } from 'rowspace/extension';

/**
 * An extension module with a metadata table of its own (test/extension.e2e.spec.ts): it
 * declares its entity and its migration as Rowspace's modules declare theirs.
 */
@Entity('test_extension_note')
export class TestExtensionNoteEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  text: string;
}

export class TestExtensionNotes1900000000000 implements MigrationInterface {
  name = 'TestExtensionNotes1900000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'test_extension_note',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'text', type: 'varchar', length: '255' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('test_extension_note');
  }
}

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [TestExtensionNoteEntity], migrations: [TestExtensionNotes1900000000000] })],
})
export class RowspaceExtension {}
