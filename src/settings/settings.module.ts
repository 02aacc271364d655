import { Module } from '@nestjs/common';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { SettingsEntity } from './settings.entity';

@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [SettingsEntity] })],
  controllers: [SettingsController],
  providers: [SettingsRepository, SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
