import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.js';

describe('isDatabaseUnavailable', () => {
  it('knows socket errors, node-postgres connection errors and PostgreSQL shutdown/connection codes', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const error of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('57P01'),
      coded('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([coded('ECONNREFUSED')]),
    ])
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
  });
  it('leaves every other error alone', () => {
    for (const error of [new Error('boom'), Object.assign(new Error('dup'), { code: '23505' }), 'text', null])
      expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
