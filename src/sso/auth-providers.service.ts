import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, ErrorTree, validationError } from '../core/errors/api-error';
import { bodyObjectError, checkObject, checkValue } from '../core/validation/field';
import { TokenKeyCipher } from '../tokens/token-keys';
import { AuthProviderEntity } from './auth-provider.entity';
import { AuthProviderRepository } from './auth-provider.repository';
import { AuthProviderTypes } from './auth-provider-types';
import { AuthProviderCatalog } from './password-sign-in';
import { AuthProviderType, domainCheck, ProviderSecrets } from './types/auth-provider-type';

export const AuthProviderErrors = {
  notFound: () => new ApiError('ERROR_AUTH_PROVIDER_DOES_NOT_EXIST', 404, 'The requested auth provider does not exist.'),
  cannotCreate: () => new ApiError('ERROR_AUTH_PROVIDER_CANNOT_BE_CREATED', 400, 'The provider type cannot be created.'),
  cannotDelete: () => new ApiError('ERROR_AUTH_PROVIDER_CANNOT_BE_DELETED', 400, 'The provider type cannot be deleted.'),
  lastEnabled: () => new ApiError('ERROR_CANNOT_DISABLE_ALL_AUTH_PROVIDERS', 400, 'The last enabled provider cannot be disabled.'),
  samlDomainTaken: () =>
    new ApiError(
      'ERROR_SAML_PROVIDER_FOR_DOMAIN_ALREADY_EXISTS',
      400,
      'You cannot have two SAML providers with the same domain, please choose a unique domain for each SAML provider.',
    ),
};

const COMMON_FIELDS = {
  domain: { kind: 'string', max: 255, required: false, nullable: true, allowBlank: true, check: domainCheck },
  enabled: { kind: 'bool', required: false },
} as const;

/** Staff's management of the auth providers (`/api/admin/auth-provider/`) and the login options. */
@Injectable()
export class AuthProvidersService {
  readonly secrets: ProviderSecrets;

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: AuthProviderRepository,
    private readonly types: AuthProviderTypes,
    private readonly catalog: AuthProviderCatalog,
    cipher: TokenKeyCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.secrets = { seal: (plain) => cipher.encrypt(plain), open: (sealed) => cipher.decrypt(sealed) };
  }

  private urls() {
    return { backendUrl: this.config.publicUrl, frontendUrl: this.config.webFrontendUrl };
  }

  private typeOf(provider: AuthProviderEntity): AuthProviderType {
    return this.types.get(provider.type)!;
  }

  /** Baserow's AuthProviderSerializer with the type's fields. */
  serialize(provider: AuthProviderEntity): Record<string, unknown> {
    return { id: provider.id, type: provider.type, domain: provider.domain, enabled: provider.enabled, ...this.typeOf(provider).serialize(provider, this.secrets) };
  }

  async get(id: number): Promise<AuthProviderEntity> {
    const provider = await this.repo.findById(id);
    if (!provider || !this.types.get(provider.type)) throw AuthProviderErrors.notFound();
    return provider;
  }

  /** `GET /api/admin/auth-provider/`: every type with its providers. */
  async list(): Promise<{ auth_provider_types: Record<string, unknown>[] }> {
    const providers = await this.repo.list();
    return {
      auth_provider_types: this.types.all().map((type) => ({
        type: type.type,
        can_create_new: type.canCreate,
        can_delete_existing: type.canDelete,
        auth_providers: providers.filter((provider) => provider.type === type.type).map((provider) => this.serialize(provider)),
        ...type.listExtras?.(this.urls()),
      })),
    };
  }

  /** `GET /api/auth-provider/login-options/`: the types with an enabled provider, keyed by type. */
  async loginOptions(): Promise<Record<string, unknown>> {
    const enabled = (await this.catalog.all()).filter((provider) => provider.enabled);
    const options: Record<string, unknown> = {};
    for (const type of this.types.all()) {
      const option = type.loginOptions({ providers: enabled.filter((provider) => provider.type === type.type), ...this.urls() });
      if (option) options[type.type] = option;
    }
    return options;
  }

  async create(body: unknown): Promise<Record<string, unknown>> {
    const source = this.body(body);
    const typeResult = checkValue({ kind: 'choice', choices: this.types.names() }, source.type);
    const type = 'error' in typeResult ? undefined : this.types.get(typeResult.value as string);
    const common = checkObject(COMMON_FIELDS, source);
    const own = type ? checkObject(type.fields, source) : { values: {}, errors: {} };
    const errors: ErrorTree = { ...common.errors, ...own.errors };
    if ('error' in typeResult) errors.type = typeResult.error;
    if (type?.domainRequired && !common.values.domain && !errors.domain) errors.domain = [{ error: 'This field is required.', code: 'required' }];
    if (Object.keys(errors).length) throw validationError(errors);
    if (!type!.canCreate) throw AuthProviderErrors.cannotCreate();
    const domain = (common.values.domain as string | null | undefined) || null;
    // Outside the transaction: it may ask the provider (OpenID Connect discovery).
    const settings = await type!.settingsFrom(own.values, null, this.secrets);
    const provider = await this.db.run(async () => {
      if (type!.type === 'saml') await this.checkSamlDomain(domain, null);
      return this.repo.create({ type: type!.type, domain, enabled: (common.values.enabled as boolean | undefined) ?? true, settings });
    });
    return this.serialize(provider);
  }

  async update(id: number, body: unknown): Promise<Record<string, unknown>> {
    const provider = await this.get(id);
    const type = this.typeOf(provider);
    const source = this.body(body);
    const common = checkObject(COMMON_FIELDS, source, { partial: true });
    const own = checkObject(type.fields, source, { partial: true });
    const errors: ErrorTree = { ...common.errors, ...own.errors };
    if (Object.keys(errors).length) throw validationError(errors);
    const settings = Object.keys(own.values).length ? await type.settingsFrom(own.values, provider.settings, this.secrets) : null;
    await this.db.run(async () => {
      if (common.values.enabled === false && !(await this.repo.anotherEnabled(id))) throw AuthProviderErrors.lastEnabled();
      const values: Partial<AuthProviderEntity> = {};
      if (common.values.enabled !== undefined) values.enabled = common.values.enabled as boolean;
      if (common.values.domain !== undefined) {
        values.domain = (common.values.domain as string | null) || null;
        if (type.type === 'saml') {
          if (!values.domain) throw validationError({ domain: [{ error: 'This field may not be blank.', code: 'blank' }] });
          await this.checkSamlDomain(values.domain, id);
        }
      }
      if (settings) values.settings = settings;
      await this.repo.update(id, values);
    });
    return this.serialize(await this.get(id));
  }

  async delete(id: number): Promise<void> {
    const provider = await this.get(id);
    if (!this.typeOf(provider).canDelete) throw AuthProviderErrors.cannotDelete();
    await this.db.run(async () => {
      if (!(await this.repo.anotherEnabled(id))) throw AuthProviderErrors.lastEnabled();
      await this.repo.delete(id);
    });
  }

  /** Baserow's guess of the next provider's id (staff see its callback URL before creating it). */
  async nextId(): Promise<{ next_provider_id: number }> {
    const providers = await this.repo.list();
    return { next_provider_id: Math.max(0, ...providers.map((provider) => provider.id)) + 1 };
  }

  /** Marks a SAML provider verified (its first successful sign-in). */
  async markVerified(provider: AuthProviderEntity): Promise<void> {
    if (provider.settings.is_verified === true) return;
    await this.repo.update(provider.id, { settings: { ...provider.settings, is_verified: true } });
  }

  private async checkSamlDomain(domain: string | null, exceptId: number | null): Promise<void> {
    const taken = (await this.repo.listOfType('saml')).some((other) => other.domain === domain && other.id !== exceptId);
    if (taken) throw AuthProviderErrors.samlDomainTaken();
  }

  private body(body: unknown): Record<string, unknown> {
    const error = bodyObjectError(body);
    if (error) throw validationError(error);
    return (body ?? {}) as Record<string, unknown>;
  }
}
