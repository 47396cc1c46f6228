// A worker thread does not inherit tsx's loader on Node 20: register it, then load the thread's TypeScript module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
