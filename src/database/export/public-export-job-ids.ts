import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeyRing } from '../../core/secrets/key-ring';

/**
 * The ids of public view export jobs as their anonymous callers see them (Baserow premium's
 * `export_public_view_signer`): `<id>.<signature>`, so that nobody reads a job by guessing ids.
 */
@Injectable()
export class PublicExportJobIds {
  constructor(private readonly keys: KeyRing) {}

  private signature(id: number): string {
    return createHmac('sha256', this.keys.key('signing')).update(`export-public-view:${id}`).digest('base64url');
  }

  sign(id: number): string {
    return `${id}.${this.signature(id)}`;
  }

  /** The job id a signed id stands for; null when it is not one this instance signed. */
  verify(signed: string): number | null {
    const match = /^(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(signed);
    if (!match) return null;
    const id = Number(match[1]);
    const expected = Buffer.from(this.signature(id));
    const given = Buffer.from(match[2]);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
  }
}
