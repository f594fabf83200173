import { createLogger } from '@pitwall/service-kit';
import { InProcessBroker, InProcessBus } from '../src';
import { busContract } from '../src/testing';

const broker = new InProcessBroker();
const logger = createLogger('bus-test');

busContract('in-process', () => new InProcessBus({ broker, prefix: 'test.', logger }));
