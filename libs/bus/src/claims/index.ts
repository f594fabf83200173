export { CLAIM_ACCOUNT_HEADER, CLAIM_AUTH_SCHEME, REPLY_CLAIM, signClaimToken, verifyClaimToken, type Claim } from './claim';
export { answerBytes, bytesAnswer, concatBytes, framedAnswer, heldAnswer, JSON_MEDIA_TYPE, keptAnswer, type BulkAnswer } from './bulk-answer';
export { answerTag, REPLY_ANSWER_HELD, REPLY_ANSWER_TAG, REQUEST_HELD_ANSWER } from './held-answer';
export { ClaimDesk, ClaimRefusal, type ClaimDeskOptions } from './claim-desk';
export { ClaimRedeemer, type ClaimRedeemerOptions, type RedeemedAnswer } from './claim-redeemer';
export { claimDeskSettings, claimRedeemerSettings, claimSecret } from './settings';
export { receiveChunks, runFed, type ChunkHead, type ReceiveOptions, type StreamWatch, type WatchedStream } from './port-chunks';
