import { createLogger } from '@pitwall/service-kit';
import { AmqpBus, createBus, InProcessBus } from '../src';
import { deleteAmqpTopology } from '../src/testing';

const logger = createLogger('bus-test');

describe('createBus', () => {
  test('when no url is configured, then it is the in-process bus', async () => {
    const bus = createBus({ prefix: 'unit.', logger });
    expect(bus).toBeInstanceOf(InProcessBus);
    await bus.close();
  });

  test('when a url is configured, then it is the AMQP bus', async () => {
    const url = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
    const bus = createBus({ url, prefix: `pitwall-test.unit-${process.pid}.`, logger });
    expect(bus).toBeInstanceOf(AmqpBus);
    await bus.close();
    await deleteAmqpTopology(url, [bus as AmqpBus]);
  });
});
