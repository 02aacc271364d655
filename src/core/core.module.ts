import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { JwtModule } from '@nestjs/jwt';
import { ScheduleModule } from '@nestjs/schedule';
import { APP_CONFIG, AppConfig } from './config/config';
import { DataSourceModule } from './database/data-source.module';
import { RequestRateLimiter } from './http/rate-limit';
import { RouteTable } from './http/route-table';
import { InFlight } from './lifecycle/in-flight';
import { Mailer } from './mail/mailer';
import { RedisModule } from './redis/redis.module';
import { Signer } from './signing/signer';

/** What every module uses: configuration, the database, events, signing, mail, Redis. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        DiscoveryModule,
        EventEmitterModule.forRoot(),
        ScheduleModule.forRoot(),
        JwtModule.register({ secret: config.secretKey, signOptions: { algorithm: 'HS256' } }),
        RedisModule,
        DataSourceModule,
      ],
      providers: [{ provide: APP_CONFIG, useValue: config }, RouteTable, Mailer, Signer, InFlight, RequestRateLimiter],
      exports: [APP_CONFIG, JwtModule, RouteTable, Mailer, Signer, InFlight, RequestRateLimiter],
    };
  }
}
