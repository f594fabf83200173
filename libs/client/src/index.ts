export * from './client-base';
export { PitwallClient } from './generated';
export { generateClientSource } from './codegen';
export * from './channels';
export { AttachmentStatus, type AttachmentResult, type AttachmentSource, type AttachedFileRecord, type RereadableSource } from './attachment-upload';
