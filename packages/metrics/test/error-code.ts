import { isXtrustError } from '@xtrust/core';

/** The XtrustError code `f` throws ('OTHER' for any other error), or undefined when it returns. */
export function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isXtrustError(e) ? e.code : 'OTHER';
  }
  return undefined;
}
