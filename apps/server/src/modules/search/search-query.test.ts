import { describe, expect, it } from 'vitest';
import { hasTerms, highlightsOf, parseSearch, toFts5, toTsquery } from './search-query';

describe('parseSearch', () => {
  it('folds case and accents and keeps quoted phrases together', () => {
    expect(parseSearch('Café "Big Deploy" now')).toEqual({
      prefixes: ['cafe', 'now'],
      phrases: [['big', 'deploy']],
    });
  });

  it('reads query syntax as text', () => {
    expect(parseSearch('NEAR( a* OR "b')).toEqual({ prefixes: ['near', 'a', 'or', 'b'], phrases: [] });
    expect(hasTerms(parseSearch('* " ( ) -'))).toBe(false);
    expect(parseSearch("'; DROP TABLE messages; --").prefixes).toEqual(['drop', 'table', 'messages']);
  });
});

describe('index queries', () => {
  const terms = parseSearch('deploy "new release" x"y');
  it('for FTS5 quote every token', () => {
    expect(toFts5(terms)).toBe('"deploy"* AND "x"* AND "y"* AND "new release"');
  });
  it('for PostgreSQL use prefix lexemes and phrase operators', () => {
    expect(toTsquery(terms)).toBe("'deploy':* & 'x':* & 'y':* & ('new' <-> 'release')");
  });
});

describe('highlightsOf', () => {
  it('marks matched words by their place in the original text', () => {
    const body = 'Le café: Deployment ready, deploy now';
    expect(highlightsOf(body, parseSearch('cafe deploy'))).toEqual([
      [3, 7],
      [9, 19],
      [27, 33],
    ]);
  });
  it('marks phrase words whole, not by prefix', () => {
    expect(highlightsOf('new news release', parseSearch('"new release"'))).toEqual([
      [0, 3],
      [9, 16],
    ]);
  });
});
