import { runMain } from '@pitwall/service-host';
import { simulationService } from './definition';

/** Composition root: the host runs the definition (src/definition.ts). */
export { simulationService };

if (require.main === module) runMain(simulationService);
