/** Operating a live broker: import, browse dead letters, re-drive (pure: the server does the I/O). */
export * from './brokerVersion.js';
export * from './brokerSnapshot.js';
export * from './importTypes.js';
export * from './namePrefix.js';
export * from './layoutByPrefix.js';
export * from './nodeGroups.js';
export * from './scaffoldImport.js';
export * from './deadLetter.js';
export * from './browseEffect.js';
export * from './redrive.js';
export * from './redriveCounts.js';
export * from './canary.js';
export * from './jsonPatch.js';
export * from './redriveEdit.js';
export * from './redriveBounce.js';
export { messageDigest } from './messageDigest.js';
export { checkEditInPlan } from './redrivePatchCheck.js';
