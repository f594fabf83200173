import { setUp } from './shared-stack';

export default setUp;
