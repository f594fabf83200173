export * from './client-base';
export { PitwallClient } from './generated';
export { generateClientSource } from './codegen';
export * from './channels';
