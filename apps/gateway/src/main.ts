import { runMain } from '@pitwall/service-host';
import { gateway } from './definition';

/** Composition root: the host runs the definition (src/definition.ts). */
export { gateway };

if (require.main === module) runMain(gateway);
