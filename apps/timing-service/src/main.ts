import { runMain } from '@pitwall/service-host';
import { timingService } from './definition';

/** Composition root: the host runs the definition (src/definition.ts). */
export { timingService };

if (require.main === module) runMain(timingService);
