import { runMain } from '@pitwall/service-host';
import { entityService } from './definition';

/** Composition root: the host runs the definition (src/definition.ts). */
export { entityService };

if (require.main === module) runMain(entityService);
