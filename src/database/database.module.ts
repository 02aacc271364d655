import { Module, OnModuleInit } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { ApplicationTypeRegistry } from '../applications/application-type';
import { DatabaseApplicationType } from './database-application.type';
import { TableRepository } from './table.repository';

/** Database applications: tables, fields, rows (the rows live in real SQL tables). */
@Module({
  imports: [ApplicationsModule],
  providers: [TableRepository, DatabaseApplicationType],
  exports: [TableRepository],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly registry: ApplicationTypeRegistry,
    private readonly databaseType: DatabaseApplicationType,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.databaseType);
  }
}
