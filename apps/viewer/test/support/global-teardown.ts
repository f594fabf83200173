import { tearDown } from './stack-template-folder';

export default tearDown;
