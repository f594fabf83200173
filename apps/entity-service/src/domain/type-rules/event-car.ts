import { AppError } from '@pitwall/service-kit';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { TypeRule } from './type-rule';

/** An event car's CarId is the entered car (its second parent), and a car is entered in an event once. */
export const eventCarEntry: TypeRule = {
  async beforeWrite(q, accountId, { parameters, parents, updates, existing, updatesPath = 'ParameterUpdates' }) {
    const moved = updates.find((u) => u.def.name === 'CarId' && u.value !== parents.parent2_id);
    if (moved) throw AppError.badRequest('The request body is not valid', { [moved.path ?? `${updatesPath}[${moved.index}].Value`]: ['CarId is the entered car (carId) and cannot be changed'] });
    parameters['CarId'] = parents.parent2_id;
    if (!existing && parents.parent_id && parents.parent2_id) {
      // Locking the event serialises concurrent entries, so two requests cannot both see the car as not entered.
      await repo.findById(q, accountId, 'Events', parents.parent_id, true);
      if (await repo.eventCarExists(q, accountId, parents.parent_id, parents.parent2_id)) throw AppError.conflict(`Car ${parents.parent2_id} is already entered in event ${parents.parent_id}`);
    }
  },
};
