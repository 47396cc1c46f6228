// The drawing process runs TypeScript: register tsx's loader (resolved from here), then load the drawer.
import { register } from 'tsx/esm/api';

register();
await import('./drawer.ts');
