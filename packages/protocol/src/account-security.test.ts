import { describe, expect, it } from 'vitest';
import { TOTP_MSG, totpCodeSchema } from './account-security';
import { loginSchema } from './auth';

describe('a second-step code', () => {
  it('is six digits or a recovery code, however it was typed', () => {
    expect(totpCodeSchema.parse(' 123456 ')).toBe('123456');
    expect(totpCodeSchema.parse('K7QM-2XDP-9FWC')).toBe('k7qm-2xdp-9fwc');
    expect(totpCodeSchema.parse('k7qm 2xdp 9fwc')).toBe('k7qm2xdp9fwc');
  });

  it('refuses anything else with the screen’s texts', () => {
    expect(totpCodeSchema.safeParse('').error?.issues[0]?.message).toBe(TOTP_MSG.codeRequired);
    for (const bad of ['12345', '1234567', 'k7qm-2xdp', 'drop table;--', 'x'.repeat(40)])
      expect(totpCodeSchema.safeParse(bad).error?.issues[0]?.message).toBe(TOTP_MSG.invalidCode);
  });

  it('is optional at login', () => {
    expect(loginSchema.parse({ email: 'a@b.c', password: 'secret1' }).totp_code).toBeUndefined();
    expect(loginSchema.parse({ email: 'a@b.c', password: 'secret1', totp_code: '000111' }).totp_code).toBe(
      '000111',
    );
  });
});
