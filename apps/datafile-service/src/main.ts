import { runMain } from '@pitwall/service-host';
import { datafileService } from './definition';

/** Composition root: the host runs the definition (src/definition.ts). */
export { datafileService };

if (require.main === module) runMain(datafileService);
