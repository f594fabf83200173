import { setUp } from './stack-template-folder';

export default setUp;
