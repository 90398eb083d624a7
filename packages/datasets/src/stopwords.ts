// The function-word list lives in @xtrust/core (the oracle needs it too, and it depends on core, not on datasets).
export { NON_CONTENT_WORDS } from '@xtrust/core';
