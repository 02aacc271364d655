import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { PublicViewsService } from '../../views/public/public-views.service';
import { PageSubscriber, PageType } from './page-type';

/**
 * `{"page": "view", "slug": s, "token"?: t}`: a shared view's page, for anonymous and logged-in
 * sockets. A member of the view's workspace may follow any view; anyone else a public one
 * (with its password token when it has a password). Forms have no rows to follow.
 */
@Injectable()
export class ViewPageType implements PageType, OnModuleInit {
  readonly type = 'view';
  readonly parameters = ['slug', 'token'] as const;
  private publicViews!: PublicViewsService;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The views module depends on the database module the realtime module imports: looked up once. */
  onModuleInit(): void {
    this.publicViews = this.moduleRef.get(PublicViewsService, { strict: false });
  }

  async canAdd(subscriber: PageSubscriber, { slug, token }: Record<string, unknown>): Promise<boolean> {
    if (this.config.disableAnonymousPublicViewWs || typeof slug !== 'string' || !slug) return false;
    return this.publicViews.canListen(slug, { userId: subscriber.userId, token: typeof token === 'string' ? token : null });
  }

  group({ slug }: Record<string, unknown>): string {
    return viewPageGroup(String(slug));
  }

  permissionGroup(): null {
    return null;
  }
}

/** `view-<slug>`. */
export function viewPageGroup(slug: string): string {
  return `view-${slug}`;
}
