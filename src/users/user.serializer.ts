import { ApiProperty } from '@nestjs/swagger';
import { UserEntity } from './user.entity';

/** Baserow's UserSerializer. */
export class UserJson {
  @ApiProperty() first_name: string;
  @ApiProperty({ description: 'The e-mail address.' }) username: string;
  @ApiProperty() is_staff: boolean;
  @ApiProperty() id: number;
  @ApiProperty() language: string;
  @ApiProperty({ enum: ['instant', 'daily', 'weekly', 'never'] }) email_notification_frequency: string;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() completed_onboarding: boolean;
  @ApiProperty({ type: [String] }) completed_guided_tours: string[];
}

/** PublicUserSerializer, as nested in real-time messages. */
export class PublicUserJson {
  @ApiProperty() id: number;
  @ApiProperty() username: string;
  @ApiProperty() first_name: string;
}

export function serializeUser(user: UserEntity): UserJson {
  return {
    first_name: user.firstName,
    username: user.email,
    is_staff: user.isStaff,
    id: user.id,
    language: user.language,
    email_notification_frequency: user.emailNotificationFrequency,
    email_verified: user.emailVerified,
    completed_onboarding: user.completedOnboarding,
    completed_guided_tours: user.completedGuidedTours ?? [],
  };
}

/** Baserow's AccountSerializer: what `PATCH /api/user/account/` sets, and answers whole. */
export interface AccountJson {
  first_name: string;
  language: string;
  email_notification_frequency: string;
  completed_onboarding: boolean;
  completed_guided_tours: string[];
}

export function serializeAccount(user: UserEntity): AccountJson {
  return {
    first_name: user.firstName,
    language: user.language,
    email_notification_frequency: user.emailNotificationFrequency,
    completed_onboarding: user.completedOnboarding,
    completed_guided_tours: user.completedGuidedTours ?? [],
  };
}

export function serializePublicUser(user: UserEntity): PublicUserJson {
  return { id: user.id, username: user.email, first_name: user.firstName };
}

/** Trimmed, NFKC-normalized, lower-cased: the form every e-mail is stored and looked up in. */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase();
}

export const LANGUAGES = ['en', 'fr', 'nl', 'de', 'es', 'it', 'pl', 'ko'] as const;
