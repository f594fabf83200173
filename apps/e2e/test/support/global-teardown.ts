import { tearDown } from './shared-stack';

export default tearDown;
