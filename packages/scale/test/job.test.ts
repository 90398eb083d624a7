import { describe, expect, it } from 'vitest';
import { XtrustError } from '@xtrust/core';
import {
  JOB_VERSION,
  Resources,
  checkPayload,
  checkRunId,
  loadBuiltinModel,
  makePayload,
  redactUrl,
  redactor,
  redisUrl,
  type ModelOptions,
} from '../src/index.js';

describe('job payloads', () => {
  const task = { kind: 'explain' as const, model: '/models/m', explainer: { name: 'lime', options: { seed: 1 } } };

  it('accepts a payload of this version and carries no connection settings', () => {
    const p = makePayload('run-1', 0, task, [{ id: 'a', text: 'hello world', index: 0 }]);
    expect(checkPayload(JSON.parse(JSON.stringify(p)))).toEqual(p);
    expect(JSON.stringify(p)).not.toMatch(/redis/i);
  });

  it('rejects a payload from another version with the reason', () => {
    const p = { ...makePayload('run-1', 0, task, []), version: JOB_VERSION + 1, xtrust: '9.9.9' };
    expect(() => checkPayload(p)).toThrow(
      `version ${JOB_VERSION + 1} was written by xtrust 9.9.9; this worker (xtrust 0.1.0) reads version ${JOB_VERSION}`,
    );
    expect(() => checkPayload({ hello: 1 })).toThrow(/not an xtrust job/);
    expect(() => checkPayload({ ...makePayload('r', 0, task, []), task: { ...task, kind: 'dance' } })).toThrow(
      /unknown kind "dance"/,
    );
  });

  it('carries the model options (int8) and refuses ones this worker does not know', () => {
    const int8 = { ...task, modelOptions: { quantize: 'int8' as const } };
    const p = makePayload('run-1', 0, int8, []);
    expect(checkPayload(JSON.parse(JSON.stringify(p))).task.modelOptions).toEqual({ quantize: 'int8' });
    // a worker must not score the float model for a job that asked for another one
    expect(() => checkPayload({ ...p, task: { ...task, modelOptions: { quantize: 'int4' } } })).toThrow(
      /model options \{"quantize":"int4"\} this worker does not know/,
    );
    expect(() => checkPayload({ ...p, task: { ...task, modelOptions: { threads: 2 } } })).toThrow(
      /model options .*threads/,
    );
  });

  it('checks run ids', () => {
    expect(checkRunId('audit_2024-01')).toBe('audit_2024-01');
    expect(() => checkRunId('a:b')).toThrow(/run id/);
  });
});

describe('model loading of a job', () => {
  it("hands the job's model options to the loader and keeps the int8 model apart from the float one", async () => {
    const calls: [string, ModelOptions | undefined][] = [];
    const resources = new Resources(async (path, options) => {
      calls.push([path, options]);
      return {
        name: `${path}${options?.quantize ? '+int8' : ''}`,
        labels: ['a', 'b'],
        predictProba: async () => new Float32Array(),
      };
    });
    const float = await resources.model('/m');
    const int8 = await resources.model('/m', { quantize: 'int8' });
    expect(float.name).toBe('/m');
    expect(int8.name).toBe('/m+int8');
    expect(await resources.model('/m', { quantize: 'int8' })).toBe(int8);
    expect(calls).toEqual([
      ['/m', undefined],
      ['/m', { quantize: 'int8' }],
    ]);
  });

  it('the default loader (saved xtrust models) refuses int8 with the reason', async () => {
    await expect(loadBuiltinModel('/models/m', { quantize: 'int8' })).rejects.toThrow(
      /int8 quantisation needs an ONNX model; \/models\/m is loaded as a saved xtrust model/,
    );
    await expect(new Resources().model('/models/m', { quantize: 'int8' })).rejects.toThrow(XtrustError);
  });
});

describe('credentials', () => {
  it('redacts passwords from URLs and any text', () => {
    expect(redactUrl('redis://user:s3cr%40t@host:6380/2')).toBe('redis://user:***@host:6380/2');
    expect(redactUrl('rediss://:pw@host:6380')).toBe('rediss://:***@host:6380');
    const clean = redactor('redis://user:s3cr%40t@host:6380/2');
    expect(clean('failed: redis://user:s3cr%40t@host:6380/2 said s3cr@t and s3cr%40t')).toBe(
      'failed: redis://user:***@host:6380/2 said *** and ***',
    );
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
