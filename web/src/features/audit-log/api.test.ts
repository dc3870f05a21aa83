import { describe, expect, it } from 'vitest';
import { auditQuery, EMPTY_FILTERS } from './api';

describe('auditQuery', () => {
  it('sends only the filters that are set, trimmed', () => {
    expect(auditQuery(EMPTY_FILTERS)).toEqual({});
    expect(auditQuery({ ...EMPTY_FILTERS, action: ' paste ', actor: 'apikey:' })).toEqual({
      action: 'paste',
      actor: 'apikey:',
    });
  });

  it('turns days into the first and last instant of the local day', () => {
    const query = auditQuery({ ...EMPTY_FILTERS, from: '2026-03-01', to: '2026-03-02' });
    expect(new Date(query.from!).getTime()).toBe(new Date(2026, 2, 1, 0, 0, 0, 0).getTime());
    expect(new Date(query.to!).getTime()).toBe(new Date(2026, 2, 2, 23, 59, 59, 999).getTime());
  });
});
