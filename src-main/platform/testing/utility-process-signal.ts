/** Sent by a fake utility process once it listens (utility-process-preload.ts): Node drops messages that come before. */
export const READY_SIGNAL = 'fake-utility-process:ready'
