import { isPublicAddress } from '../src/core/http/guarded-fetch';
import { truncateMiddle } from '../src/core/text/truncate';
import { cleanOriginalName, extensionOf } from '../src/files/user-files.service';

describe('upload via URL: which addresses may be fetched', () => {
  it.each([
    ['127.0.0.1'], ['127.255.255.254'], ['10.0.0.1'], ['172.16.0.1'], ['192.168.1.1'], ['169.254.169.254'], ['100.64.0.1'],
    ['0.0.0.0'], ['255.255.255.255'], ['224.0.0.1'], ['240.0.0.1'], ['::'], ['::1'], ['fe80::1'], ['fc00::1'], ['fd12:3456::1'],
    ['ff02::1'], ['::ffff:127.0.0.1'], ['::ffff:10.0.0.1'], ['::ffff:7f00:1'], ['64:ff9b::7f00:1'], ['2002:7f00:1::1'],
    ['2001::1'], ['not an address'], [''],
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([['8.8.8.8'], ['1.1.1.1'], ['93.184.216.34'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('file names', () => {
  it('keep the last path segment, without control characters, at most 64 characters', () => {
    expect(cleanOriginalName('../../etc/passwd')).toBe('passwd');
    expect(cleanOriginalName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanOriginalName('a\u0000b\u001f.txt')).toBe('ab.txt');
    expect(cleanOriginalName('x'.repeat(70) + '.pdf')).toHaveLength(64);
    expect(truncateMiddle('abcdefghij', 7)).toBe('ab...ij');
    // Baserow's split: the left part is the shorter one.
    expect(truncateMiddle('a'.repeat(30) + 'XY' + 'b'.repeat(60), 64)).toBe('a'.repeat(30) + '...' + 'b'.repeat(31));
  });

  it('store a safe extension', () => {
    expect(extensionOf('photo.JPEG')).toBe('jpeg');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('weird.p/n\u0000g?x=1')).toBe('pngx1');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.env')).toBe('');
  });
});
