import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { JwtModule } from '@nestjs/jwt';
import { ScheduleModule } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { Caches } from './cache/caches';
import { APP_CONFIG, AppConfig } from './config/config';
import { DataSourceModule } from './database/data-source.module';
import { Dialect } from './database/dialect';
import { OwnedSchema } from './database/owned-schema';
import { DIALECT } from './database/tokens';
import { RequestRateLimiter } from './http/rate-limit';
import { RouteTable } from './http/route-table';
import { InFlight } from './lifecycle/in-flight';
import { Mailer } from './mail/mailer';
import { RedisModule } from './redis/redis.module';
import { resolveInstanceSecret } from './secrets/instance-secret';
import { KeyRing } from './secrets/key-ring';
import { Signer } from './signing/signer';
import { WorkerPool } from './workers/worker-pool';

/** What every module uses: configuration, the database, events, keys and signing, mail, Redis. */
@Global()
@Module({})
export class CoreModule {
  /** `schema`: the entities and migrations the app's modules declare, for the data source. */
  static forRoot(config: AppConfig, schema: OwnedSchema): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        DiscoveryModule,
        EventEmitterModule.forRoot(),
        ScheduleModule.forRoot(),
        // Keys come from the KeyRing per purpose; the module itself holds none.
        JwtModule.register({}),
        RedisModule,
        DataSourceModule.forRoot(schema),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        {
          // After the migrations (the data source is migrated when injected), before anything signs.
          provide: KeyRing,
          inject: [DataSource, DIALECT],
          useFactory: async (dataSource: DataSource, dialect: Dialect) => new KeyRing(await resolveInstanceSecret(config, dataSource, dialect)),
        },
        RouteTable,
        Mailer,
        Signer,
        InFlight,
        RequestRateLimiter,
        Caches,
        WorkerPool,
      ],
      exports: [APP_CONFIG, JwtModule, KeyRing, RouteTable, Mailer, Signer, InFlight, RequestRateLimiter, Caches, WorkerPool],
    };
  }
}
