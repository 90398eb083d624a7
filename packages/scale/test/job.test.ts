import { describe, expect, it } from 'vitest';
import { JOB_VERSION, checkPayload, checkRunId, makePayload, redactUrl, redactor, redisUrl } from '../src/index.js';

describe('job payloads', () => {
  const task = { kind: 'explain' as const, model: '/models/m', explainer: { name: 'lime', options: { seed: 1 } } };

  it('accepts a payload of this version and carries no connection settings', () => {
    const p = makePayload('run-1', 0, task, [{ id: 'a', text: 'hello world', index: 0 }]);
    expect(checkPayload(JSON.parse(JSON.stringify(p)))).toEqual(p);
    expect(JSON.stringify(p)).not.toMatch(/redis/i);
  });

  it('rejects a payload from another version with the reason', () => {
    const p = { ...makePayload('run-1', 0, task, []), version: JOB_VERSION + 1, xtrust: '9.9.9' };
    expect(() => checkPayload(p)).toThrow(/version 2 was written by xtrust 9\.9\.9; this worker .* reads version 1/);
    expect(() => checkPayload({ hello: 1 })).toThrow(/not an xtrust job/);
    expect(() => checkPayload({ ...makePayload('r', 0, task, []), task: { ...task, kind: 'dance' } })).toThrow(/unknown kind "dance"/);
  });

  it('checks run ids', () => {
    expect(checkRunId('audit_2024-01')).toBe('audit_2024-01');
    expect(() => checkRunId('a:b')).toThrow(/run id/);
  });
});

describe('credentials', () => {
  it('redacts passwords from URLs and any text', () => {
    expect(redactUrl('redis://user:s3cr%40t@host:6380/2')).toBe('redis://user:***@host:6380/2');
    expect(redactUrl('rediss://:pw@host:6380')).toBe('rediss://:***@host:6380');
    const clean = redactor('redis://user:s3cr%40t@host:6380/2');
    expect(clean('failed: redis://user:s3cr%40t@host:6380/2 said s3cr@t and s3cr%40t')).toBe('failed: redis://user:***@host:6380/2 said *** and ***');
  });

  it('refuses a URL that is not redis:// or rediss:// without echoing the password', () => {
    expect(() => redisUrl('http://u:topsecret@h:1')).toThrow(/redis:\/\/ or rediss:\/\//);
    try {
      redisUrl('not a url topsecret');
    } catch (e) {
      expect((e as Error).message).not.toContain('topsecret');
    }
  });
});
