import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolvesToPublic } from './public-address';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, metadata, shared and reserved addresses, v4 and v6', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::192.168.0.1',
      // The same hosts written in hex, and local-use NAT64.
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '0:0:0:0:0:ffff:a00:1',
      '64:ff9b:1::8.8.8.8',
      'not an ip',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });

  it('accepts public addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '142.250.74.10',
      '2606:4700::6810:85e5',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ])
      expect(isPublicAddress(ip), ip).toBe(true);
  });
});

describe('resolvesToPublic', () => {
  it('resolves names first: localhost, with or without its trailing dot, is not public', async () => {
    expect(await resolvesToPublic('localhost')).toBe(false);
    expect(await resolvesToPublic('localhost.')).toBe(false);
    expect(await resolvesToPublic('[::1]')).toBe(false);
    expect(await resolvesToPublic('127.0.0.1')).toBe(false);
    expect(await resolvesToPublic('8.8.8.8')).toBe(true);
  });
});
