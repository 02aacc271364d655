import { isIP } from 'node:net';
import { Field } from '../core/validation/field';

/** Django's URLValidator, roughly: a scheme it knows and a host that is a domain, localhost or an address. */
function validUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return ['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && (host === 'localhost' || isIP(host) !== 0 || /^[^.\s]+(\.[^.\s]+)*\.[a-z\u00a1-\uffff-]{2,63}\.?$/i.test(host));
  } catch {
    return false;
  }
}

export class UploadViaUrlDto {
  @Field({
    kind: 'string',
    example: 'https://baserow.io/img/logo.png',
    check: (value: string) => (validUrl(value) ? null : { error: 'Enter a valid URL.', code: 'invalid' }),
  })
  url: string;
}
