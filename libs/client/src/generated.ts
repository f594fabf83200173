// Generated from the operation table by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.
import type { ChannelsBody, ChannelsReadJson, CreateModel, DataFileMetadataJson, EntityJson, HistogramBody, HistogramJson, LapDeltaJson, LapDistanceJson, LapStatsBody, LapStatsJson, PrepareAttachmentBody, ReadRecordJson, ReprocessSimulationBody, ScatterBody, ScatterJson, SearchBody, SimulationCallbackCreated, SimulationCallbackRegistration, SimulationCallbacks, SimulationConnection, SimulationResults, SimulationStatusResults, TimingLapUpdate, TimingRunUpdate, TimingSectorUpdate, TimingSpeedTrapUpdate, TrackMapBody, TrackMapJson, TriggerSimulationBody, UpdateModel } from '@pitwall/contracts';
import { ClientBase, includeQuery, type ClientResult, type Include } from './client-base';
import type { ChannelReadAnswer, ChannelReadOptions, ChannelsReadOptions } from './channels';
import type { AttachmentResult, AttachmentSource } from './attachment-upload';

/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */
export class PitwallClient extends ClientBase {
  /** GET /Accounts/GetAll: The caller's accounts (AccountId header may be empty here) (GetAllAccounts) */
  getAllAccounts(): Promise<ClientResult<{ Id: string; Name: string; Role: 'reader' | 'editor' | 'admin' }[]>> {
    return this.call('GET', '/Accounts/GetAll', {}, {});
  }
  /** GET /Championships/{id}: Get one Championship (GetChampionshipById) */
  getChampionshipById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Championships/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Championships: List the account's Championships (GetAllChampionships) */
  getAllChampionships(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Championships', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Championships: Create a Championship (AddChampionship) */
  addChampionship(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Championships', {}, {}, model);
  }
  /** PUT /Championships/{id}: Update a Championship (UpdateChampionship) */
  updateChampionship(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Championships/{id}', { id }, {}, model);
  }
  /** DELETE /Championships/{id}: Delete a Championship with its children and attached files (DeleteChampionship) */
  deleteChampionship(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Championships/{id}', { id }, {});
  }
  /** POST /Championships/{id}/Attachments: Prepare an attached file of a Championship: the record (state 0) and a signed URL to PUT its bytes to (AddChampionshipAttachment) */
  prepareChampionshipAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Championships/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Championships/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddChampionshipAttachment); status says which step failed */
  addAttachmentToChampionship(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Championships/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Championships/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryChampionshipAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Championships/{id}/Attachments', result, file);
  }
  /** GET /Championships/{id}/Attachments: List the attached files of a Championship, each with a signed download URL (GetChampionshipAttachments) */
  getChampionshipAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Championships/{id}/Attachments', { id }, {});
  }
  /** PUT /Championships/{id}/Attachments/{attachedFileId}: Update an attached file of a Championship: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateChampionshipAttachment) */
  updateChampionshipAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Championships/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Championships/{id}/Attachments/{attachedFileId}: Delete an attached file of a Championship (its bytes go when nothing else refers to them) (DeleteChampionshipAttachment) */
  deleteChampionshipAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Championships/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Events/{id}: Get one Event (GetEventById) */
  getEventById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Events/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Events?championshipId=: List Events by championshipId (GetAllEventsForChampionship) */
  getAllEventsForChampionship(championshipId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Events', {}, { championshipId, ...includeQuery(parametersToInclude) });
  }
  /** POST /Events?championshipId=: Create a Event (parent ids in the query or the body) (AddEvent) */
  addEvent(championshipId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Events', {}, { championshipId }, model);
  }
  /** PUT /Events/{id}: Update a Event (UpdateEvent) */
  updateEvent(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Events/{id}', { id }, {}, model);
  }
  /** DELETE /Events/{id}: Delete a Event with its children and attached files (DeleteEvent) */
  deleteEvent(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Events/{id}', { id }, {});
  }
  /** POST /Events/{id}/Attachments: Prepare an attached file of a Event: the record (state 0) and a signed URL to PUT its bytes to (AddEventAttachment) */
  prepareEventAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Events/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Events/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddEventAttachment); status says which step failed */
  addAttachmentToEvent(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Events/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Events/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryEventAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Events/{id}/Attachments', result, file);
  }
  /** GET /Events/{id}/Attachments: List the attached files of a Event, each with a signed download URL (GetEventAttachments) */
  getEventAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Events/{id}/Attachments', { id }, {});
  }
  /** PUT /Events/{id}/Attachments/{attachedFileId}: Update an attached file of a Event: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateEventAttachment) */
  updateEventAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Events/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Events/{id}/Attachments/{attachedFileId}: Delete an attached file of a Event (its bytes go when nothing else refers to them) (DeleteEventAttachment) */
  deleteEventAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Events/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Sessions/{id}: Get one Session (GetSessionById) */
  getSessionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Sessions/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Sessions?eventId=: List Sessions by eventId (GetAllSessionsForEvent) */
  getAllSessionsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Sessions', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** POST /Sessions?eventId=: Create a Session (parent ids in the query or the body) (AddSession) */
  addSession(eventId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Sessions', {}, { eventId }, model);
  }
  /** PUT /Sessions/{id}: Update a Session (UpdateSession) */
  updateSession(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Sessions/{id}', { id }, {}, model);
  }
  /** DELETE /Sessions/{id}: Delete a Session with its children and attached files (DeleteSession) */
  deleteSession(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Sessions/{id}', { id }, {});
  }
  /** POST /Sessions/{id}/Attachments: Prepare an attached file of a Session: the record (state 0) and a signed URL to PUT its bytes to (AddSessionAttachment) */
  prepareSessionAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Sessions/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Sessions/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionAttachment); status says which step failed */
  addAttachmentToSession(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Sessions/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Sessions/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Sessions/{id}/Attachments', result, file);
  }
  /** GET /Sessions/{id}/Attachments: List the attached files of a Session, each with a signed download URL (GetSessionAttachments) */
  getSessionAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Sessions/{id}/Attachments', { id }, {});
  }
  /** PUT /Sessions/{id}/Attachments/{attachedFileId}: Update an attached file of a Session: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionAttachment) */
  updateSessionAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Sessions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Sessions/{id}/Attachments/{attachedFileId}: Delete an attached file of a Session (its bytes go when nothing else refers to them) (DeleteSessionAttachment) */
  deleteSessionAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Sessions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Cars/{id}: Get one Car (GetCarById) */
  getCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Cars/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Cars: List the account's Cars (GetAllCars) */
  getAllCars(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Cars', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Cars: Create a Car (AddCar) */
  addCar(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Cars', {}, {}, model);
  }
  /** PUT /Cars/{id}: Update a Car (UpdateCar) */
  updateCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Cars/{id}', { id }, {}, model);
  }
  /** DELETE /Cars/{id}: Delete a Car with its children and attached files (DeleteCar) */
  deleteCar(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Cars/{id}', { id }, {});
  }
  /** POST /Cars/{id}/Attachments: Prepare an attached file of a Car: the record (state 0) and a signed URL to PUT its bytes to (AddCarAttachment) */
  prepareCarAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Cars/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Cars/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddCarAttachment); status says which step failed */
  addAttachmentToCar(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Cars/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Cars/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryCarAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Cars/{id}/Attachments', result, file);
  }
  /** GET /Cars/{id}/Attachments: List the attached files of a Car, each with a signed download URL (GetCarAttachments) */
  getCarAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Cars/{id}/Attachments', { id }, {});
  }
  /** PUT /Cars/{id}/Attachments/{attachedFileId}: Update an attached file of a Car: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateCarAttachment) */
  updateCarAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Cars/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Cars/{id}/Attachments/{attachedFileId}: Delete an attached file of a Car (its bytes go when nothing else refers to them) (DeleteCarAttachment) */
  deleteCarAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Cars/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /EventCars/{id}: Get one EventCar (GetEventCarById) */
  getEventCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/EventCars/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCars?eventId=&carId=: List EventCars by eventId and/or carId (GetAllEventCarsForEventCar) */
  getAllEventCarsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCars', {}, { eventId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCars?eventId=: List EventCars by eventId and/or carId (GetAllEventCarsForEventCar) */
  getAllEventCarsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCars', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCars?carId=: List EventCars by eventId and/or carId (GetAllEventCarsForEventCar) */
  getAllEventCarsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCars', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /EventCars?eventId=&carId=: Create a EventCar (parent ids in the query or the body) (AddEventCar) */
  addEventCar(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/EventCars', {}, { eventId, carId }, model);
  }
  /** PUT /EventCars/{id}: Update a EventCar (UpdateEventCar) */
  updateEventCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/EventCars/{id}', { id }, {}, model);
  }
  /** DELETE /EventCars/{id}: Delete a EventCar with its children and attached files (DeleteEventCar) */
  deleteEventCar(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/EventCars/{id}', { id }, {});
  }
  /** POST /EventCars/{id}/Attachments: Prepare an attached file of a EventCar: the record (state 0) and a signed URL to PUT its bytes to (AddEventCarAttachment) */
  prepareEventCarAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/EventCars/{id}/Attachments', { id }, {}, model);
  }
  /** POST /EventCars/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddEventCarAttachment); status says which step failed */
  addAttachmentToEventCar(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/EventCars/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /EventCars/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryEventCarAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/EventCars/{id}/Attachments', result, file);
  }
  /** GET /EventCars/{id}/Attachments: List the attached files of a EventCar, each with a signed download URL (GetEventCarAttachments) */
  getEventCarAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/EventCars/{id}/Attachments', { id }, {});
  }
  /** PUT /EventCars/{id}/Attachments/{attachedFileId}: Update an attached file of a EventCar: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateEventCarAttachment) */
  updateEventCarAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/EventCars/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /EventCars/{id}/Attachments/{attachedFileId}: Delete an attached file of a EventCar (its bytes go when nothing else refers to them) (DeleteEventCarAttachment) */
  deleteEventCarAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/EventCars/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Drivers/{id}: Get one Driver (GetDriverById) */
  getDriverById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Drivers/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Drivers: List the account's Drivers (GetAllDrivers) */
  getAllDrivers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Drivers', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Drivers: Create a Driver (AddDriver) */
  addDriver(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Drivers', {}, {}, model);
  }
  /** PUT /Drivers/{id}: Update a Driver (UpdateDriver) */
  updateDriver(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Drivers/{id}', { id }, {}, model);
  }
  /** DELETE /Drivers/{id}: Delete a Driver with its children and attached files (DeleteDriver) */
  deleteDriver(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Drivers/{id}', { id }, {});
  }
  /** POST /Drivers/{id}/Attachments: Prepare an attached file of a Driver: the record (state 0) and a signed URL to PUT its bytes to (AddDriverAttachment) */
  prepareDriverAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Drivers/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Drivers/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddDriverAttachment); status says which step failed */
  addAttachmentToDriver(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Drivers/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Drivers/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryDriverAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Drivers/{id}/Attachments', result, file);
  }
  /** GET /Drivers/{id}/Attachments: List the attached files of a Driver, each with a signed download URL (GetDriverAttachments) */
  getDriverAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Drivers/{id}/Attachments', { id }, {});
  }
  /** PUT /Drivers/{id}/Attachments/{attachedFileId}: Update an attached file of a Driver: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateDriverAttachment) */
  updateDriverAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Drivers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Drivers/{id}/Attachments/{attachedFileId}: Delete an attached file of a Driver (its bytes go when nothing else refers to them) (DeleteDriverAttachment) */
  deleteDriverAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Drivers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Tracks/{id}: Get one Track (GetTrackById) */
  getTrackById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Tracks/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Tracks: List the account's Tracks (GetAllTracks) */
  getAllTracks(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Tracks', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Tracks: Create a Track (AddTrack) */
  addTrack(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Tracks', {}, {}, model);
  }
  /** PUT /Tracks/{id}: Update a Track (UpdateTrack) */
  updateTrack(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Tracks/{id}', { id }, {}, model);
  }
  /** DELETE /Tracks/{id}: Delete a Track with its children and attached files (DeleteTrack) */
  deleteTrack(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Tracks/{id}', { id }, {});
  }
  /** POST /Tracks/{id}/Attachments: Prepare an attached file of a Track: the record (state 0) and a signed URL to PUT its bytes to (AddTrackAttachment) */
  prepareTrackAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Tracks/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Tracks/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTrackAttachment); status says which step failed */
  addAttachmentToTrack(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Tracks/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Tracks/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTrackAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Tracks/{id}/Attachments', result, file);
  }
  /** GET /Tracks/{id}/Attachments: List the attached files of a Track, each with a signed download URL (GetTrackAttachments) */
  getTrackAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Tracks/{id}/Attachments', { id }, {});
  }
  /** PUT /Tracks/{id}/Attachments/{attachedFileId}: Update an attached file of a Track: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTrackAttachment) */
  updateTrackAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Tracks/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Tracks/{id}/Attachments/{attachedFileId}: Delete an attached file of a Track (its bytes go when nothing else refers to them) (DeleteTrackAttachment) */
  deleteTrackAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Tracks/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TrackConfigurations/{id}: Get one TrackConfiguration (GetTrackConfigurationById) */
  getTrackConfigurationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TrackConfigurations/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TrackConfigurations?trackId=: List TrackConfigurations by trackId (GetAllTrackConfigurationsForTrack) */
  getAllTrackConfigurationsForTrack(trackId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TrackConfigurations', {}, { trackId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TrackConfigurations?trackId=: Create a TrackConfiguration (parent ids in the query or the body) (AddTrackConfiguration) */
  addTrackConfiguration(trackId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TrackConfigurations', {}, { trackId }, model);
  }
  /** PUT /TrackConfigurations/{id}: Update a TrackConfiguration (UpdateTrackConfiguration) */
  updateTrackConfiguration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TrackConfigurations/{id}', { id }, {}, model);
  }
  /** DELETE /TrackConfigurations/{id}: Delete a TrackConfiguration with its children and attached files (DeleteTrackConfiguration) */
  deleteTrackConfiguration(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackConfigurations/{id}', { id }, {});
  }
  /** POST /TrackConfigurations/{id}/Attachments: Prepare an attached file of a TrackConfiguration: the record (state 0) and a signed URL to PUT its bytes to (AddTrackConfigurationAttachment) */
  prepareTrackConfigurationAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TrackConfigurations/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TrackConfigurations/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTrackConfigurationAttachment); status says which step failed */
  addAttachmentToTrackConfiguration(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TrackConfigurations/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TrackConfigurations/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTrackConfigurationAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TrackConfigurations/{id}/Attachments', result, file);
  }
  /** GET /TrackConfigurations/{id}/Attachments: List the attached files of a TrackConfiguration, each with a signed download URL (GetTrackConfigurationAttachments) */
  getTrackConfigurationAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TrackConfigurations/{id}/Attachments', { id }, {});
  }
  /** PUT /TrackConfigurations/{id}/Attachments/{attachedFileId}: Update an attached file of a TrackConfiguration: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTrackConfigurationAttachment) */
  updateTrackConfigurationAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TrackConfigurations/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TrackConfigurations/{id}/Attachments/{attachedFileId}: Delete an attached file of a TrackConfiguration (its bytes go when nothing else refers to them) (DeleteTrackConfigurationAttachment) */
  deleteTrackConfigurationAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackConfigurations/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TrackSectorDefinitions/{id}: Get one TrackSectorDefinition (GetTrackSectorDefinitionById) */
  getTrackSectorDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TrackSectorDefinitions/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TrackSectorDefinitions?trackConfigurationId=: List TrackSectorDefinitions by trackConfigurationId (GetAllTrackSectorDefinitionsForTrackConfiguration) */
  getAllTrackSectorDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TrackSectorDefinitions', {}, { trackConfigurationId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TrackSectorDefinitions?trackConfigurationId=: Create a TrackSectorDefinition (parent ids in the query or the body) (AddTrackSectorDefinition) */
  addTrackSectorDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TrackSectorDefinitions', {}, { trackConfigurationId }, model);
  }
  /** PUT /TrackSectorDefinitions/{id}: Update a TrackSectorDefinition (UpdateTrackSectorDefinition) */
  updateTrackSectorDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TrackSectorDefinitions/{id}', { id }, {}, model);
  }
  /** DELETE /TrackSectorDefinitions/{id}: Delete a TrackSectorDefinition with its children and attached files (DeleteTrackSectorDefinition) */
  deleteTrackSectorDefinition(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackSectorDefinitions/{id}', { id }, {});
  }
  /** POST /TrackSectorDefinitions/{id}/Attachments: Prepare an attached file of a TrackSectorDefinition: the record (state 0) and a signed URL to PUT its bytes to (AddTrackSectorDefinitionAttachment) */
  prepareTrackSectorDefinitionAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TrackSectorDefinitions/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TrackSectorDefinitions/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTrackSectorDefinitionAttachment); status says which step failed */
  addAttachmentToTrackSectorDefinition(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TrackSectorDefinitions/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TrackSectorDefinitions/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTrackSectorDefinitionAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TrackSectorDefinitions/{id}/Attachments', result, file);
  }
  /** GET /TrackSectorDefinitions/{id}/Attachments: List the attached files of a TrackSectorDefinition, each with a signed download URL (GetTrackSectorDefinitionAttachments) */
  getTrackSectorDefinitionAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TrackSectorDefinitions/{id}/Attachments', { id }, {});
  }
  /** PUT /TrackSectorDefinitions/{id}/Attachments/{attachedFileId}: Update an attached file of a TrackSectorDefinition: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTrackSectorDefinitionAttachment) */
  updateTrackSectorDefinitionAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TrackSectorDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TrackSectorDefinitions/{id}/Attachments/{attachedFileId}: Delete an attached file of a TrackSectorDefinition (its bytes go when nothing else refers to them) (DeleteTrackSectorDefinitionAttachment) */
  deleteTrackSectorDefinitionAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackSectorDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TrackSpeedTrapDefinitions/{id}: Get one TrackSpeedTrapDefinition (GetTrackSpeedTrapDefinitionById) */
  getTrackSpeedTrapDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TrackSpeedTrapDefinitions/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TrackSpeedTrapDefinitions?trackConfigurationId=: List TrackSpeedTrapDefinitions by trackConfigurationId (GetAllTrackSpeedTrapDefinitionsForTrackConfiguration) */
  getAllTrackSpeedTrapDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TrackSpeedTrapDefinitions', {}, { trackConfigurationId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TrackSpeedTrapDefinitions?trackConfigurationId=: Create a TrackSpeedTrapDefinition (parent ids in the query or the body) (AddTrackSpeedTrapDefinition) */
  addTrackSpeedTrapDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TrackSpeedTrapDefinitions', {}, { trackConfigurationId }, model);
  }
  /** PUT /TrackSpeedTrapDefinitions/{id}: Update a TrackSpeedTrapDefinition (UpdateTrackSpeedTrapDefinition) */
  updateTrackSpeedTrapDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TrackSpeedTrapDefinitions/{id}', { id }, {}, model);
  }
  /** DELETE /TrackSpeedTrapDefinitions/{id}: Delete a TrackSpeedTrapDefinition with its children and attached files (DeleteTrackSpeedTrapDefinition) */
  deleteTrackSpeedTrapDefinition(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackSpeedTrapDefinitions/{id}', { id }, {});
  }
  /** POST /TrackSpeedTrapDefinitions/{id}/Attachments: Prepare an attached file of a TrackSpeedTrapDefinition: the record (state 0) and a signed URL to PUT its bytes to (AddTrackSpeedTrapDefinitionAttachment) */
  prepareTrackSpeedTrapDefinitionAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TrackSpeedTrapDefinitions/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TrackSpeedTrapDefinitions/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTrackSpeedTrapDefinitionAttachment); status says which step failed */
  addAttachmentToTrackSpeedTrapDefinition(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TrackSpeedTrapDefinitions/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TrackSpeedTrapDefinitions/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTrackSpeedTrapDefinitionAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TrackSpeedTrapDefinitions/{id}/Attachments', result, file);
  }
  /** GET /TrackSpeedTrapDefinitions/{id}/Attachments: List the attached files of a TrackSpeedTrapDefinition, each with a signed download URL (GetTrackSpeedTrapDefinitionAttachments) */
  getTrackSpeedTrapDefinitionAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TrackSpeedTrapDefinitions/{id}/Attachments', { id }, {});
  }
  /** PUT /TrackSpeedTrapDefinitions/{id}/Attachments/{attachedFileId}: Update an attached file of a TrackSpeedTrapDefinition: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTrackSpeedTrapDefinitionAttachment) */
  updateTrackSpeedTrapDefinitionAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TrackSpeedTrapDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TrackSpeedTrapDefinitions/{id}/Attachments/{attachedFileId}: Delete an attached file of a TrackSpeedTrapDefinition (its bytes go when nothing else refers to them) (DeleteTrackSpeedTrapDefinitionAttachment) */
  deleteTrackSpeedTrapDefinitionAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TrackSpeedTrapDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Setups/{id}: Get one Setup (GetSetupById) */
  getSetupById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Setups/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Setups?eventId=&carId=: List Setups by eventId and/or carId (GetAllSetupsForEventCar) */
  getAllSetupsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Setups', {}, { eventId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /Setups?eventId=: List Setups by eventId and/or carId (GetAllSetupsForEventCar) */
  getAllSetupsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Setups', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** GET /Setups?carId=: List Setups by eventId and/or carId (GetAllSetupsForEventCar) */
  getAllSetupsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Setups', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /Setups?eventId=&carId=: Create a Setup (parent ids in the query or the body) (AddSetup) */
  addSetup(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Setups', {}, { eventId, carId }, model);
  }
  /** PUT /Setups/{id}: Update a Setup (UpdateSetup) */
  updateSetup(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Setups/{id}', { id }, {}, model);
  }
  /** DELETE /Setups/{id}: Delete a Setup with its children and attached files (DeleteSetup) */
  deleteSetup(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Setups/{id}', { id }, {});
  }
  /** POST /Setups/{id}/Attachments: Prepare an attached file of a Setup: the record (state 0) and a signed URL to PUT its bytes to (AddSetupAttachment) */
  prepareSetupAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Setups/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Setups/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSetupAttachment); status says which step failed */
  addAttachmentToSetup(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Setups/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Setups/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySetupAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Setups/{id}/Attachments', result, file);
  }
  /** GET /Setups/{id}/Attachments: List the attached files of a Setup, each with a signed download URL (GetSetupAttachments) */
  getSetupAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Setups/{id}/Attachments', { id }, {});
  }
  /** PUT /Setups/{id}/Attachments/{attachedFileId}: Update an attached file of a Setup: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSetupAttachment) */
  updateSetupAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Setups/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Setups/{id}/Attachments/{attachedFileId}: Delete an attached file of a Setup (its bytes go when nothing else refers to them) (DeleteSetupAttachment) */
  deleteSetupAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Setups/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Setups/{id}/DataFileAccess/{attachedFileGroupName}/metadata: Metadata of a Setup's data file dataset (no samples) (GetSetupDataFileMetadata) */
  getSetupDataFileMetadata(id: string, attachedFileGroupName: string): Promise<ClientResult<DataFileMetadataJson>> {
    return this.call('GET', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/metadata', { id, attachedFileGroupName }, {});
  }
  /** GET /Setups/{id}/DataFileAccess/{attachedFileGroupName}/channel: Samples of one channel of a Setup's dataset: a lap (lapIndex), a window [start, start+duration), or the whole file (GetSetupDataFileChannel); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getSetupDataFileChannel<O extends ChannelReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, channel: string, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>> {
    return this.channelRead('GET', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/channel', { id, attachedFileGroupName }, { channel, ...options }, undefined) as Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>>;
  }
  /** POST /Setups/{id}/DataFileAccess/{attachedFileGroupName}/channels: Samples of many channels of a Setup's dataset in one request (mode 0 whole file, 1 lap, 2 window) (GetSetupDataFileChannels); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getSetupDataFileChannels<O extends ChannelsReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, body: ChannelsBody, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>> {
    return this.channelRead('POST', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/channels', { id, attachedFileGroupName }, options, body) as Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>>;
  }
  /** GET /Setups/{id}/DataFileAccess/{attachedFileGroupName}/distance?lapIndex=[&maxPoints=&distanceChannel=]: Extension: lap-relative time and distance of one lap of a Setup's dataset, from its distance channel or its speed integrated (GetSetupDataFileLapDistance) */
  getSetupDataFileLapDistance(id: string, attachedFileGroupName: string, lapIndex: string, options: { maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDistanceJson>> {
    return this.call('GET', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/distance', { id, attachedFileGroupName }, { lapIndex, ...options });
  }
  /** GET /Setups/{id}/DataFileAccess/{attachedFileGroupName}/delta?lapIndex=&referenceLapIndex=[&referenceEntityId=&referenceAttachedFileGroupName=&maxPoints=&distanceChannel=]: Extension: time delta of one lap against a reference lap (this dataset's, or another Setup's) over distance, in one request (GetSetupDataFileLapDelta) */
  getSetupDataFileLapDelta(id: string, attachedFileGroupName: string, lapIndex: string, referenceLapIndex: string, options: { referenceEntityId?: string; referenceAttachedFileGroupName?: string; maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDeltaJson>> {
    return this.call('GET', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/delta', { id, attachedFileGroupName }, { lapIndex, referenceLapIndex, ...options });
  }
  /** POST /Setups/{id}/DataFileAccess/{attachedFileGroupName}/lapstats: Extension: each lap's time and sectors, the best and theoretical best lap, and per channel per lap min, max, mean and time above a threshold, of a Setup's dataset (GetSetupDataFileLapStats) */
  getSetupDataFileLapStats(id: string, attachedFileGroupName: string, body: LapStatsBody): Promise<ClientResult<LapStatsJson>> {
    return this.call('POST', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/lapstats', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /Setups/{id}/DataFileAccess/{attachedFileGroupName}/scatter: Extension: one channel against another, coloured by a third, of a Setup's dataset (whole file or a lap): points, or a density grid when there are more than maxPoints (GetSetupDataFileScatter) */
  getSetupDataFileScatter(id: string, attachedFileGroupName: string, body: ScatterBody): Promise<ClientResult<ScatterJson>> {
    return this.call('POST', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/scatter', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /Setups/{id}/DataFileAccess/{attachedFileGroupName}/histogram: Extension: the histogram of one channel of a Setup's dataset (whole file or a lap), in equal bins or between given edges (GetSetupDataFileHistogram) */
  getSetupDataFileHistogram(id: string, attachedFileGroupName: string, body: HistogramBody): Promise<ClientResult<HistogramJson>> {
    return this.call('POST', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/histogram', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /Setups/{id}/DataFileAccess/{attachedFileGroupName}/trackmap: Extension: the track map of one lap of a Setup's dataset (x/y in metres with distance and time, coloured by a channel), from GPS or by dead reckoning from speed and yaw rate or lateral acceleration (GetSetupDataFileTrackMap) */
  getSetupDataFileTrackMap(id: string, attachedFileGroupName: string, body: TrackMapBody): Promise<ClientResult<TrackMapJson>> {
    return this.call('POST', '/Setups/{id}/DataFileAccess/{attachedFileGroupName}/trackmap', { id, attachedFileGroupName }, {}, body);
  }
  /** GET /EventCarDatas/{id}: Get one EventCarData (GetEventCarDataById) */
  getEventCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/EventCarDatas/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCarDatas?eventId=&carId=: List EventCarDatas by eventId and/or carId (GetAllEventCarDatasForEventCar) */
  getAllEventCarDatasForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCarDatas', {}, { eventId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCarDatas?eventId=: List EventCarDatas by eventId and/or carId (GetAllEventCarDatasForEventCar) */
  getAllEventCarDatasForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCarDatas', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** GET /EventCarDatas?carId=: List EventCarDatas by eventId and/or carId (GetAllEventCarDatasForEventCar) */
  getAllEventCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/EventCarDatas', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /EventCarDatas?eventId=&carId=: Create a EventCarData (parent ids in the query or the body) (AddEventCarData) */
  addEventCarData(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/EventCarDatas', {}, { eventId, carId }, model);
  }
  /** PUT /EventCarDatas/{id}: Update a EventCarData (UpdateEventCarData) */
  updateEventCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/EventCarDatas/{id}', { id }, {}, model);
  }
  /** DELETE /EventCarDatas/{id}: Delete a EventCarData with its children and attached files (DeleteEventCarData) */
  deleteEventCarData(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/EventCarDatas/{id}', { id }, {});
  }
  /** POST /EventCarDatas/{id}/Attachments: Prepare an attached file of a EventCarData: the record (state 0) and a signed URL to PUT its bytes to (AddEventCarDataAttachment) */
  prepareEventCarDataAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/EventCarDatas/{id}/Attachments', { id }, {}, model);
  }
  /** POST /EventCarDatas/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddEventCarDataAttachment); status says which step failed */
  addAttachmentToEventCarData(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/EventCarDatas/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /EventCarDatas/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryEventCarDataAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/EventCarDatas/{id}/Attachments', result, file);
  }
  /** GET /EventCarDatas/{id}/Attachments: List the attached files of a EventCarData, each with a signed download URL (GetEventCarDataAttachments) */
  getEventCarDataAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/EventCarDatas/{id}/Attachments', { id }, {});
  }
  /** PUT /EventCarDatas/{id}/Attachments/{attachedFileId}: Update an attached file of a EventCarData: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateEventCarDataAttachment) */
  updateEventCarDataAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/EventCarDatas/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /EventCarDatas/{id}/Attachments/{attachedFileId}: Delete an attached file of a EventCarData (its bytes go when nothing else refers to them) (DeleteEventCarDataAttachment) */
  deleteEventCarDataAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/EventCarDatas/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /Tyres/Search: Search Tyres by association (POST for clients that cannot send a GET body) (SearchForTyresByPost) */
  searchForTyres(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/Tyres/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /Tyres/{id}: Get one Tyre (GetTyreById) */
  getTyreById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Tyres/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Tyres: List the account's Tyres (GetAllTyres) */
  getAllTyres(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Tyres', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Tyres: Create a Tyre (AddTyre) */
  addTyre(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Tyres', {}, {}, model);
  }
  /** PUT /Tyres/{id}: Update a Tyre (UpdateTyre) */
  updateTyre(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Tyres/{id}', { id }, {}, model);
  }
  /** DELETE /Tyres/{id}: Delete a Tyre with its children and attached files (DeleteTyre) */
  deleteTyre(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Tyres/{id}', { id }, {});
  }
  /** POST /Tyres/{id}/Attachments: Prepare an attached file of a Tyre: the record (state 0) and a signed URL to PUT its bytes to (AddTyreAttachment) */
  prepareTyreAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Tyres/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Tyres/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreAttachment); status says which step failed */
  addAttachmentToTyre(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Tyres/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Tyres/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Tyres/{id}/Attachments', result, file);
  }
  /** GET /Tyres/{id}/Attachments: List the attached files of a Tyre, each with a signed download URL (GetTyreAttachments) */
  getTyreAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Tyres/{id}/Attachments', { id }, {});
  }
  /** PUT /Tyres/{id}/Attachments/{attachedFileId}: Update an attached file of a Tyre: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreAttachment) */
  updateTyreAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Tyres/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Tyres/{id}/Attachments/{attachedFileId}: Delete an attached file of a Tyre (its bytes go when nothing else refers to them) (DeleteTyreAttachment) */
  deleteTyreAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Tyres/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TyreWearMeasurements/{id}: Get one TyreWearMeasurement (GetTyreWearMeasurementById) */
  getTyreWearMeasurementById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreWearMeasurements/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreWearMeasurements?tyreId=: List TyreWearMeasurements by tyreId (GetAllTyreWearMeasurementsForTyre) */
  getAllTyreWearMeasurementsForTyre(tyreId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreWearMeasurements', {}, { tyreId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreWearMeasurements?tyreId=: Create a TyreWearMeasurement (parent ids in the query or the body) (AddTyreWearMeasurement) */
  addTyreWearMeasurement(tyreId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreWearMeasurements', {}, { tyreId }, model);
  }
  /** PUT /TyreWearMeasurements/{id}: Update a TyreWearMeasurement (UpdateTyreWearMeasurement) */
  updateTyreWearMeasurement(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreWearMeasurements/{id}', { id }, {}, model);
  }
  /** DELETE /TyreWearMeasurements/{id}: Delete a TyreWearMeasurement with its children and attached files (DeleteTyreWearMeasurement) */
  deleteTyreWearMeasurement(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearMeasurements/{id}', { id }, {});
  }
  /** POST /TyreWearMeasurements/{id}/Attachments: Prepare an attached file of a TyreWearMeasurement: the record (state 0) and a signed URL to PUT its bytes to (AddTyreWearMeasurementAttachment) */
  prepareTyreWearMeasurementAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreWearMeasurements/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreWearMeasurements/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreWearMeasurementAttachment); status says which step failed */
  addAttachmentToTyreWearMeasurement(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreWearMeasurements/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreWearMeasurements/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreWearMeasurementAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreWearMeasurements/{id}/Attachments', result, file);
  }
  /** GET /TyreWearMeasurements/{id}/Attachments: List the attached files of a TyreWearMeasurement, each with a signed download URL (GetTyreWearMeasurementAttachments) */
  getTyreWearMeasurementAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreWearMeasurements/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreWearMeasurements/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreWearMeasurement: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreWearMeasurementAttachment) */
  updateTyreWearMeasurementAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreWearMeasurements/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreWearMeasurements/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreWearMeasurement (its bytes go when nothing else refers to them) (DeleteTyreWearMeasurementAttachment) */
  deleteTyreWearMeasurementAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearMeasurements/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /IssueListIssues/Search: Search IssueListIssues by association (POST for clients that cannot send a GET body) (SearchForIssueListIssuesByPost) */
  searchForIssueListIssues(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/IssueListIssues/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /IssueListIssues/{id}: Get one IssueListIssue (GetIssueListIssueById) */
  getIssueListIssueById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/IssueListIssues/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /IssueListIssues: List the account's IssueListIssues (GetAllIssueListIssues) */
  getAllIssueListIssues(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/IssueListIssues', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /IssueListIssues: Create a IssueListIssue (AddIssueListIssue) */
  addIssueListIssue(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/IssueListIssues', {}, {}, model);
  }
  /** PUT /IssueListIssues/{id}: Update a IssueListIssue (UpdateIssueListIssue) */
  updateIssueListIssue(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/IssueListIssues/{id}', { id }, {}, model);
  }
  /** DELETE /IssueListIssues/{id}: Delete a IssueListIssue with its children and attached files (DeleteIssueListIssue) */
  deleteIssueListIssue(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/IssueListIssues/{id}', { id }, {});
  }
  /** POST /IssueListIssues/{id}/Attachments: Prepare an attached file of a IssueListIssue: the record (state 0) and a signed URL to PUT its bytes to (AddIssueListIssueAttachment) */
  prepareIssueListIssueAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/IssueListIssues/{id}/Attachments', { id }, {}, model);
  }
  /** POST /IssueListIssues/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddIssueListIssueAttachment); status says which step failed */
  addAttachmentToIssueListIssue(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/IssueListIssues/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /IssueListIssues/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryIssueListIssueAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/IssueListIssues/{id}/Attachments', result, file);
  }
  /** GET /IssueListIssues/{id}/Attachments: List the attached files of a IssueListIssue, each with a signed download URL (GetIssueListIssueAttachments) */
  getIssueListIssueAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/IssueListIssues/{id}/Attachments', { id }, {});
  }
  /** PUT /IssueListIssues/{id}/Attachments/{attachedFileId}: Update an attached file of a IssueListIssue: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateIssueListIssueAttachment) */
  updateIssueListIssueAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/IssueListIssues/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /IssueListIssues/{id}/Attachments/{attachedFileId}: Delete an attached file of a IssueListIssue (its bytes go when nothing else refers to them) (DeleteIssueListIssueAttachment) */
  deleteIssueListIssueAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/IssueListIssues/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /AssemblyIterations/Search: Search AssemblyIterations by association (POST for clients that cannot send a GET body) (SearchForAssemblyIterationsByPost) */
  searchForAssemblyIterations(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/AssemblyIterations/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /AssemblyIterations/{id}: Get one AssemblyIteration (GetAssemblyIterationById) */
  getAssemblyIterationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/AssemblyIterations/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /AssemblyIterations: List the account's AssemblyIterations (GetAllAssemblyIterations) */
  getAllAssemblyIterations(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/AssemblyIterations', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /AssemblyIterations: Create a AssemblyIteration (AddAssemblyIteration) */
  addAssemblyIteration(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/AssemblyIterations', {}, {}, model);
  }
  /** PUT /AssemblyIterations/{id}: Update a AssemblyIteration (UpdateAssemblyIteration) */
  updateAssemblyIteration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/AssemblyIterations/{id}', { id }, {}, model);
  }
  /** DELETE /AssemblyIterations/{id}: Delete a AssemblyIteration with its children and attached files (DeleteAssemblyIteration) */
  deleteAssemblyIteration(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/AssemblyIterations/{id}', { id }, {});
  }
  /** POST /AssemblyIterations/{id}/Attachments: Prepare an attached file of a AssemblyIteration: the record (state 0) and a signed URL to PUT its bytes to (AddAssemblyIterationAttachment) */
  prepareAssemblyIterationAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/AssemblyIterations/{id}/Attachments', { id }, {}, model);
  }
  /** POST /AssemblyIterations/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddAssemblyIterationAttachment); status says which step failed */
  addAttachmentToAssemblyIteration(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/AssemblyIterations/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /AssemblyIterations/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryAssemblyIterationAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/AssemblyIterations/{id}/Attachments', result, file);
  }
  /** GET /AssemblyIterations/{id}/Attachments: List the attached files of a AssemblyIteration, each with a signed download URL (GetAssemblyIterationAttachments) */
  getAssemblyIterationAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/AssemblyIterations/{id}/Attachments', { id }, {});
  }
  /** PUT /AssemblyIterations/{id}/Attachments/{attachedFileId}: Update an attached file of a AssemblyIteration: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateAssemblyIterationAttachment) */
  updateAssemblyIterationAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/AssemblyIterations/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /AssemblyIterations/{id}/Attachments/{attachedFileId}: Delete an attached file of a AssemblyIteration (its bytes go when nothing else refers to them) (DeleteAssemblyIterationAttachment) */
  deleteAssemblyIterationAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/AssemblyIterations/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /RunSheets/{id}: Get one RunSheet (GetRunSheetById) */
  getRunSheetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/RunSheets/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /RunSheets?sessionId=&carId=: List RunSheets by sessionId and/or carId (GetAllRunSheetsForSessionCar) */
  getAllRunSheetsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunSheets', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /RunSheets?sessionId=: List RunSheets by sessionId and/or carId (GetAllRunSheetsForSessionCar) */
  getAllRunSheetsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunSheets', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /RunSheets?carId=: List RunSheets by sessionId and/or carId (GetAllRunSheetsForSessionCar) */
  getAllRunSheetsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunSheets', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /RunSheets?sessionId=&carId=: Create a RunSheet (parent ids in the query or the body) (AddRunSheet) */
  addRunSheet(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/RunSheets', {}, { sessionId, carId }, model);
  }
  /** PUT /RunSheets/{id}: Update a RunSheet (UpdateRunSheet) */
  updateRunSheet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/RunSheets/{id}', { id }, {}, model);
  }
  /** DELETE /RunSheets/{id}: Delete a RunSheet with its children and attached files (DeleteRunSheet) */
  deleteRunSheet(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/RunSheets/{id}', { id }, {});
  }
  /** POST /RunSheets/{id}/Attachments: Prepare an attached file of a RunSheet: the record (state 0) and a signed URL to PUT its bytes to (AddRunSheetAttachment) */
  prepareRunSheetAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/RunSheets/{id}/Attachments', { id }, {}, model);
  }
  /** POST /RunSheets/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddRunSheetAttachment); status says which step failed */
  addAttachmentToRunSheet(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/RunSheets/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /RunSheets/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryRunSheetAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/RunSheets/{id}/Attachments', result, file);
  }
  /** GET /RunSheets/{id}/Attachments: List the attached files of a RunSheet, each with a signed download URL (GetRunSheetAttachments) */
  getRunSheetAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/RunSheets/{id}/Attachments', { id }, {});
  }
  /** PUT /RunSheets/{id}/Attachments/{attachedFileId}: Update an attached file of a RunSheet: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateRunSheetAttachment) */
  updateRunSheetAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/RunSheets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /RunSheets/{id}/Attachments/{attachedFileId}: Delete an attached file of a RunSheet (its bytes go when nothing else refers to them) (DeleteRunSheetAttachment) */
  deleteRunSheetAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/RunSheets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/metadata: Metadata of a RunSheet's data file dataset (no samples) (GetRunSheetDataFileMetadata) */
  getRunSheetDataFileMetadata(id: string, attachedFileGroupName: string): Promise<ClientResult<DataFileMetadataJson>> {
    return this.call('GET', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/metadata', { id, attachedFileGroupName }, {});
  }
  /** GET /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channel: Samples of one channel of a RunSheet's dataset: a lap (lapIndex), a window [start, start+duration), or the whole file (GetRunSheetDataFileChannel); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getRunSheetDataFileChannel<O extends ChannelReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, channel: string, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>> {
    return this.channelRead('GET', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channel', { id, attachedFileGroupName }, { channel, ...options }, undefined) as Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>>;
  }
  /** POST /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channels: Samples of many channels of a RunSheet's dataset in one request (mode 0 whole file, 1 lap, 2 window) (GetRunSheetDataFileChannels); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getRunSheetDataFileChannels<O extends ChannelsReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, body: ChannelsBody, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>> {
    return this.channelRead('POST', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channels', { id, attachedFileGroupName }, options, body) as Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>>;
  }
  /** GET /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/distance?lapIndex=[&maxPoints=&distanceChannel=]: Extension: lap-relative time and distance of one lap of a RunSheet's dataset, from its distance channel or its speed integrated (GetRunSheetDataFileLapDistance) */
  getRunSheetDataFileLapDistance(id: string, attachedFileGroupName: string, lapIndex: string, options: { maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDistanceJson>> {
    return this.call('GET', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/distance', { id, attachedFileGroupName }, { lapIndex, ...options });
  }
  /** GET /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/delta?lapIndex=&referenceLapIndex=[&referenceEntityId=&referenceAttachedFileGroupName=&maxPoints=&distanceChannel=]: Extension: time delta of one lap against a reference lap (this dataset's, or another RunSheet's) over distance, in one request (GetRunSheetDataFileLapDelta) */
  getRunSheetDataFileLapDelta(id: string, attachedFileGroupName: string, lapIndex: string, referenceLapIndex: string, options: { referenceEntityId?: string; referenceAttachedFileGroupName?: string; maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDeltaJson>> {
    return this.call('GET', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/delta', { id, attachedFileGroupName }, { lapIndex, referenceLapIndex, ...options });
  }
  /** POST /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/lapstats: Extension: each lap's time and sectors, the best and theoretical best lap, and per channel per lap min, max, mean and time above a threshold, of a RunSheet's dataset (GetRunSheetDataFileLapStats) */
  getRunSheetDataFileLapStats(id: string, attachedFileGroupName: string, body: LapStatsBody): Promise<ClientResult<LapStatsJson>> {
    return this.call('POST', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/lapstats', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/scatter: Extension: one channel against another, coloured by a third, of a RunSheet's dataset (whole file or a lap): points, or a density grid when there are more than maxPoints (GetRunSheetDataFileScatter) */
  getRunSheetDataFileScatter(id: string, attachedFileGroupName: string, body: ScatterBody): Promise<ClientResult<ScatterJson>> {
    return this.call('POST', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/scatter', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/histogram: Extension: the histogram of one channel of a RunSheet's dataset (whole file or a lap), in equal bins or between given edges (GetRunSheetDataFileHistogram) */
  getRunSheetDataFileHistogram(id: string, attachedFileGroupName: string, body: HistogramBody): Promise<ClientResult<HistogramJson>> {
    return this.call('POST', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/histogram', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/trackmap: Extension: the track map of one lap of a RunSheet's dataset (x/y in metres with distance and time, coloured by a channel), from GPS or by dead reckoning from speed and yaw rate or lateral acceleration (GetRunSheetDataFileTrackMap) */
  getRunSheetDataFileTrackMap(id: string, attachedFileGroupName: string, body: TrackMapBody): Promise<ClientResult<TrackMapJson>> {
    return this.call('POST', '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/trackmap', { id, attachedFileGroupName }, {}, body);
  }
  /** GET /Laps/{id}: Get one Lap (GetLapById) */
  getLapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Laps/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Laps?runSheetId=: List Laps by runSheetId (GetAllLapsForRunSheet) */
  getAllLapsForRunSheet(runSheetId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Laps', {}, { runSheetId, ...includeQuery(parametersToInclude) });
  }
  /** POST /Laps?runSheetId=: Create a Lap (parent ids in the query or the body) (AddLap) */
  addLap(runSheetId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Laps', {}, { runSheetId }, model);
  }
  /** PUT /Laps/{id}: Update a Lap (UpdateLap) */
  updateLap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Laps/{id}', { id }, {}, model);
  }
  /** DELETE /Laps/{id}: Delete a Lap with its children and attached files (DeleteLap) */
  deleteLap(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Laps/{id}', { id }, {});
  }
  /** POST /Laps/{id}/Attachments: Prepare an attached file of a Lap: the record (state 0) and a signed URL to PUT its bytes to (AddLapAttachment) */
  prepareLapAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Laps/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Laps/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddLapAttachment); status says which step failed */
  addAttachmentToLap(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Laps/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Laps/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryLapAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Laps/{id}/Attachments', result, file);
  }
  /** GET /Laps/{id}/Attachments: List the attached files of a Lap, each with a signed download URL (GetLapAttachments) */
  getLapAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Laps/{id}/Attachments', { id }, {});
  }
  /** PUT /Laps/{id}/Attachments/{attachedFileId}: Update an attached file of a Lap: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateLapAttachment) */
  updateLapAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Laps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Laps/{id}/Attachments/{attachedFileId}: Delete an attached file of a Lap (its bytes go when nothing else refers to them) (DeleteLapAttachment) */
  deleteLapAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Laps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /LapSectors/{id}: Get one LapSector (GetLapSectorById) */
  getLapSectorById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/LapSectors/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /LapSectors?lapId=: List LapSectors by lapId (GetAllLapSectorsForLap) */
  getAllLapSectorsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/LapSectors', {}, { lapId, ...includeQuery(parametersToInclude) });
  }
  /** POST /LapSectors?lapId=: Create a LapSector (parent ids in the query or the body) (AddLapSector) */
  addLapSector(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/LapSectors', {}, { lapId }, model);
  }
  /** PUT /LapSectors/{id}: Update a LapSector (UpdateLapSector) */
  updateLapSector(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/LapSectors/{id}', { id }, {}, model);
  }
  /** DELETE /LapSectors/{id}: Delete a LapSector with its children and attached files (DeleteLapSector) */
  deleteLapSector(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapSectors/{id}', { id }, {});
  }
  /** POST /LapSectors/{id}/Attachments: Prepare an attached file of a LapSector: the record (state 0) and a signed URL to PUT its bytes to (AddLapSectorAttachment) */
  prepareLapSectorAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/LapSectors/{id}/Attachments', { id }, {}, model);
  }
  /** POST /LapSectors/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddLapSectorAttachment); status says which step failed */
  addAttachmentToLapSector(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/LapSectors/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /LapSectors/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryLapSectorAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/LapSectors/{id}/Attachments', result, file);
  }
  /** GET /LapSectors/{id}/Attachments: List the attached files of a LapSector, each with a signed download URL (GetLapSectorAttachments) */
  getLapSectorAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/LapSectors/{id}/Attachments', { id }, {});
  }
  /** PUT /LapSectors/{id}/Attachments/{attachedFileId}: Update an attached file of a LapSector: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateLapSectorAttachment) */
  updateLapSectorAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/LapSectors/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /LapSectors/{id}/Attachments/{attachedFileId}: Delete an attached file of a LapSector (its bytes go when nothing else refers to them) (DeleteLapSectorAttachment) */
  deleteLapSectorAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapSectors/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /LapSpeedTraps/{id}: Get one LapSpeedTrap (GetLapSpeedTrapById) */
  getLapSpeedTrapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/LapSpeedTraps/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /LapSpeedTraps?lapId=: List LapSpeedTraps by lapId (GetAllLapSpeedTrapsForLap) */
  getAllLapSpeedTrapsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/LapSpeedTraps', {}, { lapId, ...includeQuery(parametersToInclude) });
  }
  /** POST /LapSpeedTraps?lapId=: Create a LapSpeedTrap (parent ids in the query or the body) (AddLapSpeedTrap) */
  addLapSpeedTrap(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/LapSpeedTraps', {}, { lapId }, model);
  }
  /** PUT /LapSpeedTraps/{id}: Update a LapSpeedTrap (UpdateLapSpeedTrap) */
  updateLapSpeedTrap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/LapSpeedTraps/{id}', { id }, {}, model);
  }
  /** DELETE /LapSpeedTraps/{id}: Delete a LapSpeedTrap with its children and attached files (DeleteLapSpeedTrap) */
  deleteLapSpeedTrap(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapSpeedTraps/{id}', { id }, {});
  }
  /** POST /LapSpeedTraps/{id}/Attachments: Prepare an attached file of a LapSpeedTrap: the record (state 0) and a signed URL to PUT its bytes to (AddLapSpeedTrapAttachment) */
  prepareLapSpeedTrapAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/LapSpeedTraps/{id}/Attachments', { id }, {}, model);
  }
  /** POST /LapSpeedTraps/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddLapSpeedTrapAttachment); status says which step failed */
  addAttachmentToLapSpeedTrap(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/LapSpeedTraps/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /LapSpeedTraps/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryLapSpeedTrapAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/LapSpeedTraps/{id}/Attachments', result, file);
  }
  /** GET /LapSpeedTraps/{id}/Attachments: List the attached files of a LapSpeedTrap, each with a signed download URL (GetLapSpeedTrapAttachments) */
  getLapSpeedTrapAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/LapSpeedTraps/{id}/Attachments', { id }, {});
  }
  /** PUT /LapSpeedTraps/{id}/Attachments/{attachedFileId}: Update an attached file of a LapSpeedTrap: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateLapSpeedTrapAttachment) */
  updateLapSpeedTrapAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/LapSpeedTraps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /LapSpeedTraps/{id}/Attachments/{attachedFileId}: Delete an attached file of a LapSpeedTrap (its bytes go when nothing else refers to them) (DeleteLapSpeedTrapAttachment) */
  deleteLapSpeedTrapAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapSpeedTraps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionCarDatas/{id}: Get one SessionCarData (GetSessionCarDataById) */
  getSessionCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/SessionCarDatas/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionCarDatas?sessionId=&carId=: List SessionCarDatas by sessionId and/or carId (GetAllSessionCarDatasForSessionCar) */
  getAllSessionCarDatasForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionCarDatas', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionCarDatas?sessionId=: List SessionCarDatas by sessionId and/or carId (GetAllSessionCarDatasForSessionCar) */
  getAllSessionCarDatasForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionCarDatas', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionCarDatas?carId=: List SessionCarDatas by sessionId and/or carId (GetAllSessionCarDatasForSessionCar) */
  getAllSessionCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionCarDatas', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /SessionCarDatas?sessionId=&carId=: Create a SessionCarData (parent ids in the query or the body) (AddSessionCarData) */
  addSessionCarData(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/SessionCarDatas', {}, { sessionId, carId }, model);
  }
  /** PUT /SessionCarDatas/{id}: Update a SessionCarData (UpdateSessionCarData) */
  updateSessionCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/SessionCarDatas/{id}', { id }, {}, model);
  }
  /** DELETE /SessionCarDatas/{id}: Delete a SessionCarData with its children and attached files (DeleteSessionCarData) */
  deleteSessionCarData(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionCarDatas/{id}', { id }, {});
  }
  /** POST /SessionCarDatas/{id}/Attachments: Prepare an attached file of a SessionCarData: the record (state 0) and a signed URL to PUT its bytes to (AddSessionCarDataAttachment) */
  prepareSessionCarDataAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/SessionCarDatas/{id}/Attachments', { id }, {}, model);
  }
  /** POST /SessionCarDatas/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionCarDataAttachment); status says which step failed */
  addAttachmentToSessionCarData(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/SessionCarDatas/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /SessionCarDatas/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionCarDataAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/SessionCarDatas/{id}/Attachments', result, file);
  }
  /** GET /SessionCarDatas/{id}/Attachments: List the attached files of a SessionCarData, each with a signed download URL (GetSessionCarDataAttachments) */
  getSessionCarDataAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/SessionCarDatas/{id}/Attachments', { id }, {});
  }
  /** PUT /SessionCarDatas/{id}/Attachments/{attachedFileId}: Update an attached file of a SessionCarData: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionCarDataAttachment) */
  updateSessionCarDataAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/SessionCarDatas/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /SessionCarDatas/{id}/Attachments/{attachedFileId}: Delete an attached file of a SessionCarData (its bytes go when nothing else refers to them) (DeleteSessionCarDataAttachment) */
  deleteSessionCarDataAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionCarDatas/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/metadata: Metadata of a SessionCarData's data file dataset (no samples) (GetSessionCarDataDataFileMetadata) */
  getSessionCarDataDataFileMetadata(id: string, attachedFileGroupName: string): Promise<ClientResult<DataFileMetadataJson>> {
    return this.call('GET', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/metadata', { id, attachedFileGroupName }, {});
  }
  /** GET /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/channel: Samples of one channel of a SessionCarData's dataset: a lap (lapIndex), a window [start, start+duration), or the whole file (GetSessionCarDataDataFileChannel); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getSessionCarDataDataFileChannel<O extends ChannelReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, channel: string, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>> {
    return this.channelRead('GET', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/channel', { id, attachedFileGroupName }, { channel, ...options }, undefined) as Promise<ClientResult<ChannelReadAnswer<O, ReadRecordJson>>>;
  }
  /** POST /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/channels: Samples of many channels of a SessionCarData's dataset in one request (mode 0 whole file, 1 lap, 2 window) (GetSessionCarDataDataFileChannels); `binary: true` answers ReadSeries[], `arrow: true` the Arrow stream's bytes */
  getSessionCarDataDataFileChannels<O extends ChannelsReadOptions = Record<never, never>>(id: string, attachedFileGroupName: string, body: ChannelsBody, options: O = {} as O): Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>> {
    return this.channelRead('POST', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/channels', { id, attachedFileGroupName }, options, body) as Promise<ClientResult<ChannelReadAnswer<O, ChannelsReadJson>>>;
  }
  /** GET /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/distance?lapIndex=[&maxPoints=&distanceChannel=]: Extension: lap-relative time and distance of one lap of a SessionCarData's dataset, from its distance channel or its speed integrated (GetSessionCarDataDataFileLapDistance) */
  getSessionCarDataDataFileLapDistance(id: string, attachedFileGroupName: string, lapIndex: string, options: { maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDistanceJson>> {
    return this.call('GET', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/distance', { id, attachedFileGroupName }, { lapIndex, ...options });
  }
  /** GET /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/delta?lapIndex=&referenceLapIndex=[&referenceEntityId=&referenceAttachedFileGroupName=&maxPoints=&distanceChannel=]: Extension: time delta of one lap against a reference lap (this dataset's, or another SessionCarData's) over distance, in one request (GetSessionCarDataDataFileLapDelta) */
  getSessionCarDataDataFileLapDelta(id: string, attachedFileGroupName: string, lapIndex: string, referenceLapIndex: string, options: { referenceEntityId?: string; referenceAttachedFileGroupName?: string; maxPoints?: string; distanceChannel?: string } = {}): Promise<ClientResult<LapDeltaJson>> {
    return this.call('GET', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/delta', { id, attachedFileGroupName }, { lapIndex, referenceLapIndex, ...options });
  }
  /** POST /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/lapstats: Extension: each lap's time and sectors, the best and theoretical best lap, and per channel per lap min, max, mean and time above a threshold, of a SessionCarData's dataset (GetSessionCarDataDataFileLapStats) */
  getSessionCarDataDataFileLapStats(id: string, attachedFileGroupName: string, body: LapStatsBody): Promise<ClientResult<LapStatsJson>> {
    return this.call('POST', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/lapstats', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/scatter: Extension: one channel against another, coloured by a third, of a SessionCarData's dataset (whole file or a lap): points, or a density grid when there are more than maxPoints (GetSessionCarDataDataFileScatter) */
  getSessionCarDataDataFileScatter(id: string, attachedFileGroupName: string, body: ScatterBody): Promise<ClientResult<ScatterJson>> {
    return this.call('POST', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/scatter', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/histogram: Extension: the histogram of one channel of a SessionCarData's dataset (whole file or a lap), in equal bins or between given edges (GetSessionCarDataDataFileHistogram) */
  getSessionCarDataDataFileHistogram(id: string, attachedFileGroupName: string, body: HistogramBody): Promise<ClientResult<HistogramJson>> {
    return this.call('POST', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/histogram', { id, attachedFileGroupName }, {}, body);
  }
  /** POST /SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/trackmap: Extension: the track map of one lap of a SessionCarData's dataset (x/y in metres with distance and time, coloured by a channel), from GPS or by dead reckoning from speed and yaw rate or lateral acceleration (GetSessionCarDataDataFileTrackMap) */
  getSessionCarDataDataFileTrackMap(id: string, attachedFileGroupName: string, body: TrackMapBody): Promise<ClientResult<TrackMapJson>> {
    return this.call('POST', '/SessionCarDatas/{id}/DataFileAccess/{attachedFileGroupName}/trackmap', { id, attachedFileGroupName }, {}, body);
  }
  /** GET /ExternalSimulationProfiles/{id}: Get one ExternalSimulationProfile (GetExternalSimulationProfileById) */
  getExternalSimulationProfileById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/ExternalSimulationProfiles/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /ExternalSimulationProfiles: List the account's ExternalSimulationProfiles (GetAllExternalSimulationProfiles) */
  getAllExternalSimulationProfiles(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ExternalSimulationProfiles', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /ExternalSimulationProfiles: Create a ExternalSimulationProfile (AddExternalSimulationProfile) */
  addExternalSimulationProfile(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/ExternalSimulationProfiles', {}, {}, model);
  }
  /** PUT /ExternalSimulationProfiles/{id}: Update a ExternalSimulationProfile (UpdateExternalSimulationProfile) */
  updateExternalSimulationProfile(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/ExternalSimulationProfiles/{id}', { id }, {}, model);
  }
  /** DELETE /ExternalSimulationProfiles/{id}: Delete a ExternalSimulationProfile with its children and attached files (DeleteExternalSimulationProfile) */
  deleteExternalSimulationProfile(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ExternalSimulationProfiles/{id}', { id }, {});
  }
  /** POST /ExternalSimulationProfiles/{id}/Attachments: Prepare an attached file of a ExternalSimulationProfile: the record (state 0) and a signed URL to PUT its bytes to (AddExternalSimulationProfileAttachment) */
  prepareExternalSimulationProfileAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/ExternalSimulationProfiles/{id}/Attachments', { id }, {}, model);
  }
  /** POST /ExternalSimulationProfiles/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddExternalSimulationProfileAttachment); status says which step failed */
  addAttachmentToExternalSimulationProfile(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/ExternalSimulationProfiles/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /ExternalSimulationProfiles/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryExternalSimulationProfileAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/ExternalSimulationProfiles/{id}/Attachments', result, file);
  }
  /** GET /ExternalSimulationProfiles/{id}/Attachments: List the attached files of a ExternalSimulationProfile, each with a signed download URL (GetExternalSimulationProfileAttachments) */
  getExternalSimulationProfileAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/ExternalSimulationProfiles/{id}/Attachments', { id }, {});
  }
  /** PUT /ExternalSimulationProfiles/{id}/Attachments/{attachedFileId}: Update an attached file of a ExternalSimulationProfile: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateExternalSimulationProfileAttachment) */
  updateExternalSimulationProfileAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/ExternalSimulationProfiles/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /ExternalSimulationProfiles/{id}/Attachments/{attachedFileId}: Delete an attached file of a ExternalSimulationProfile (its bytes go when nothing else refers to them) (DeleteExternalSimulationProfileAttachment) */
  deleteExternalSimulationProfileAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ExternalSimulationProfiles/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /ParameterDefinitions/{id}: Get one ParameterDefinition (GetParameterDefinitionById) */
  getParameterDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/ParameterDefinitions/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /ParameterDefinitions: List the account's ParameterDefinitions (GetAllParameterDefinitions) */
  getAllParameterDefinitions(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ParameterDefinitions', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /ParameterDefinitions: Create a ParameterDefinition (AddParameterDefinition) */
  addParameterDefinition(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/ParameterDefinitions', {}, {}, model);
  }
  /** PUT /ParameterDefinitions/{id}: Update a ParameterDefinition (UpdateParameterDefinition) */
  updateParameterDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/ParameterDefinitions/{id}', { id }, {}, model);
  }
  /** DELETE /ParameterDefinitions/{id}: Delete a ParameterDefinition with its children and attached files (DeleteParameterDefinition) */
  deleteParameterDefinition(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ParameterDefinitions/{id}', { id }, {});
  }
  /** POST /ParameterDefinitions/{id}/Attachments: Prepare an attached file of a ParameterDefinition: the record (state 0) and a signed URL to PUT its bytes to (AddParameterDefinitionAttachment) */
  prepareParameterDefinitionAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/ParameterDefinitions/{id}/Attachments', { id }, {}, model);
  }
  /** POST /ParameterDefinitions/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddParameterDefinitionAttachment); status says which step failed */
  addAttachmentToParameterDefinition(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/ParameterDefinitions/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /ParameterDefinitions/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryParameterDefinitionAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/ParameterDefinitions/{id}/Attachments', result, file);
  }
  /** GET /ParameterDefinitions/{id}/Attachments: List the attached files of a ParameterDefinition, each with a signed download URL (GetParameterDefinitionAttachments) */
  getParameterDefinitionAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/ParameterDefinitions/{id}/Attachments', { id }, {});
  }
  /** PUT /ParameterDefinitions/{id}/Attachments/{attachedFileId}: Update an attached file of a ParameterDefinition: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateParameterDefinitionAttachment) */
  updateParameterDefinitionAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/ParameterDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /ParameterDefinitions/{id}/Attachments/{attachedFileId}: Delete an attached file of a ParameterDefinition (its bytes go when nothing else refers to them) (DeleteParameterDefinitionAttachment) */
  deleteParameterDefinitionAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ParameterDefinitions/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /MathChannels/{id}: Get one MathChannel (GetMathChannelById) */
  getMathChannelById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/MathChannels/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /MathChannels: List the account's MathChannels (GetAllMathChannels) */
  getAllMathChannels(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/MathChannels', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /MathChannels: Create a MathChannel (AddMathChannel) */
  addMathChannel(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/MathChannels', {}, {}, model);
  }
  /** PUT /MathChannels/{id}: Update a MathChannel (UpdateMathChannel) */
  updateMathChannel(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/MathChannels/{id}', { id }, {}, model);
  }
  /** DELETE /MathChannels/{id}: Delete a MathChannel with its children and attached files (DeleteMathChannel) */
  deleteMathChannel(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/MathChannels/{id}', { id }, {});
  }
  /** POST /MathChannels/{id}/Attachments: Prepare an attached file of a MathChannel: the record (state 0) and a signed URL to PUT its bytes to (AddMathChannelAttachment) */
  prepareMathChannelAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/MathChannels/{id}/Attachments', { id }, {}, model);
  }
  /** POST /MathChannels/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddMathChannelAttachment); status says which step failed */
  addAttachmentToMathChannel(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/MathChannels/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /MathChannels/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryMathChannelAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/MathChannels/{id}/Attachments', result, file);
  }
  /** GET /MathChannels/{id}/Attachments: List the attached files of a MathChannel, each with a signed download URL (GetMathChannelAttachments) */
  getMathChannelAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/MathChannels/{id}/Attachments', { id }, {});
  }
  /** PUT /MathChannels/{id}/Attachments/{attachedFileId}: Update an attached file of a MathChannel: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateMathChannelAttachment) */
  updateMathChannelAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/MathChannels/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /MathChannels/{id}/Attachments/{attachedFileId}: Delete an attached file of a MathChannel (its bytes go when nothing else refers to them) (DeleteMathChannelAttachment) */
  deleteMathChannelAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/MathChannels/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /ViewerLayouts/{id}: Get one ViewerLayout (GetViewerLayoutById) */
  getViewerLayoutById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/ViewerLayouts/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /ViewerLayouts: List the account's ViewerLayouts (GetAllViewerLayouts) */
  getAllViewerLayouts(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ViewerLayouts', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /ViewerLayouts: Create a ViewerLayout (AddViewerLayout) */
  addViewerLayout(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/ViewerLayouts', {}, {}, model);
  }
  /** PUT /ViewerLayouts/{id}: Update a ViewerLayout (UpdateViewerLayout) */
  updateViewerLayout(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/ViewerLayouts/{id}', { id }, {}, model);
  }
  /** DELETE /ViewerLayouts/{id}: Delete a ViewerLayout with its children and attached files (DeleteViewerLayout) */
  deleteViewerLayout(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ViewerLayouts/{id}', { id }, {});
  }
  /** POST /ViewerLayouts/{id}/Attachments: Prepare an attached file of a ViewerLayout: the record (state 0) and a signed URL to PUT its bytes to (AddViewerLayoutAttachment) */
  prepareViewerLayoutAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/ViewerLayouts/{id}/Attachments', { id }, {}, model);
  }
  /** POST /ViewerLayouts/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddViewerLayoutAttachment); status says which step failed */
  addAttachmentToViewerLayout(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/ViewerLayouts/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /ViewerLayouts/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryViewerLayoutAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/ViewerLayouts/{id}/Attachments', result, file);
  }
  /** GET /ViewerLayouts/{id}/Attachments: List the attached files of a ViewerLayout, each with a signed download URL (GetViewerLayoutAttachments) */
  getViewerLayoutAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/ViewerLayouts/{id}/Attachments', { id }, {});
  }
  /** PUT /ViewerLayouts/{id}/Attachments/{attachedFileId}: Update an attached file of a ViewerLayout: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateViewerLayoutAttachment) */
  updateViewerLayoutAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/ViewerLayouts/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /ViewerLayouts/{id}/Attachments/{attachedFileId}: Delete an attached file of a ViewerLayout (its bytes go when nothing else refers to them) (DeleteViewerLayoutAttachment) */
  deleteViewerLayoutAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ViewerLayouts/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /AmbientMeasurements/{id}: Get one AmbientMeasurement (GetAmbientMeasurementById) */
  getAmbientMeasurementById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/AmbientMeasurements/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /AmbientMeasurements?eventId=: List AmbientMeasurements by eventId (GetAllAmbientMeasurementsForEvent) */
  getAllAmbientMeasurementsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/AmbientMeasurements', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** POST /AmbientMeasurements?eventId=: Create a AmbientMeasurement (parent ids in the query or the body) (AddAmbientMeasurement) */
  addAmbientMeasurement(eventId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/AmbientMeasurements', {}, { eventId }, model);
  }
  /** PUT /AmbientMeasurements/{id}: Update a AmbientMeasurement (UpdateAmbientMeasurement) */
  updateAmbientMeasurement(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/AmbientMeasurements/{id}', { id }, {}, model);
  }
  /** DELETE /AmbientMeasurements/{id}: Delete a AmbientMeasurement with its children and attached files (DeleteAmbientMeasurement) */
  deleteAmbientMeasurement(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/AmbientMeasurements/{id}', { id }, {});
  }
  /** POST /AmbientMeasurements/{id}/Attachments: Prepare an attached file of a AmbientMeasurement: the record (state 0) and a signed URL to PUT its bytes to (AddAmbientMeasurementAttachment) */
  prepareAmbientMeasurementAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/AmbientMeasurements/{id}/Attachments', { id }, {}, model);
  }
  /** POST /AmbientMeasurements/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddAmbientMeasurementAttachment); status says which step failed */
  addAttachmentToAmbientMeasurement(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/AmbientMeasurements/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /AmbientMeasurements/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryAmbientMeasurementAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/AmbientMeasurements/{id}/Attachments', result, file);
  }
  /** GET /AmbientMeasurements/{id}/Attachments: List the attached files of a AmbientMeasurement, each with a signed download URL (GetAmbientMeasurementAttachments) */
  getAmbientMeasurementAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/AmbientMeasurements/{id}/Attachments', { id }, {});
  }
  /** PUT /AmbientMeasurements/{id}/Attachments/{attachedFileId}: Update an attached file of a AmbientMeasurement: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateAmbientMeasurementAttachment) */
  updateAmbientMeasurementAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/AmbientMeasurements/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /AmbientMeasurements/{id}/Attachments/{attachedFileId}: Delete an attached file of a AmbientMeasurement (its bytes go when nothing else refers to them) (DeleteAmbientMeasurementAttachment) */
  deleteAmbientMeasurementAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/AmbientMeasurements/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Teams/{id}: Get one Team (GetTeamById) */
  getTeamById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Teams/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Teams: List the account's Teams (GetAllTeams) */
  getAllTeams(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Teams', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Teams: Create a Team (AddTeam) */
  addTeam(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Teams', {}, {}, model);
  }
  /** PUT /Teams/{id}: Update a Team (UpdateTeam) */
  updateTeam(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Teams/{id}', { id }, {}, model);
  }
  /** DELETE /Teams/{id}: Delete a Team with its children and attached files (DeleteTeam) */
  deleteTeam(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Teams/{id}', { id }, {});
  }
  /** POST /Teams/{id}/Attachments: Prepare an attached file of a Team: the record (state 0) and a signed URL to PUT its bytes to (AddTeamAttachment) */
  prepareTeamAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Teams/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Teams/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTeamAttachment); status says which step failed */
  addAttachmentToTeam(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Teams/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Teams/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTeamAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Teams/{id}/Attachments', result, file);
  }
  /** GET /Teams/{id}/Attachments: List the attached files of a Team, each with a signed download URL (GetTeamAttachments) */
  getTeamAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Teams/{id}/Attachments', { id }, {});
  }
  /** PUT /Teams/{id}/Attachments/{attachedFileId}: Update an attached file of a Team: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTeamAttachment) */
  updateTeamAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Teams/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Teams/{id}/Attachments/{attachedFileId}: Delete an attached file of a Team (its bytes go when nothing else refers to them) (DeleteTeamAttachment) */
  deleteTeamAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Teams/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /CarManufacturers/{id}: Get one CarManufacturer (GetCarManufacturerById) */
  getCarManufacturerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/CarManufacturers/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /CarManufacturers: List the account's CarManufacturers (GetAllCarManufacturers) */
  getAllCarManufacturers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/CarManufacturers', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /CarManufacturers: Create a CarManufacturer (AddCarManufacturer) */
  addCarManufacturer(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/CarManufacturers', {}, {}, model);
  }
  /** PUT /CarManufacturers/{id}: Update a CarManufacturer (UpdateCarManufacturer) */
  updateCarManufacturer(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/CarManufacturers/{id}', { id }, {}, model);
  }
  /** DELETE /CarManufacturers/{id}: Delete a CarManufacturer with its children and attached files (DeleteCarManufacturer) */
  deleteCarManufacturer(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/CarManufacturers/{id}', { id }, {});
  }
  /** POST /CarManufacturers/{id}/Attachments: Prepare an attached file of a CarManufacturer: the record (state 0) and a signed URL to PUT its bytes to (AddCarManufacturerAttachment) */
  prepareCarManufacturerAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/CarManufacturers/{id}/Attachments', { id }, {}, model);
  }
  /** POST /CarManufacturers/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddCarManufacturerAttachment); status says which step failed */
  addAttachmentToCarManufacturer(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/CarManufacturers/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /CarManufacturers/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryCarManufacturerAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/CarManufacturers/{id}/Attachments', result, file);
  }
  /** GET /CarManufacturers/{id}/Attachments: List the attached files of a CarManufacturer, each with a signed download URL (GetCarManufacturerAttachments) */
  getCarManufacturerAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/CarManufacturers/{id}/Attachments', { id }, {});
  }
  /** PUT /CarManufacturers/{id}/Attachments/{attachedFileId}: Update an attached file of a CarManufacturer: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateCarManufacturerAttachment) */
  updateCarManufacturerAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/CarManufacturers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /CarManufacturers/{id}/Attachments/{attachedFileId}: Delete an attached file of a CarManufacturer (its bytes go when nothing else refers to them) (DeleteCarManufacturerAttachment) */
  deleteCarManufacturerAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/CarManufacturers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Categories/{id}: Get one Category (GetCategoryById) */
  getCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Categories/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Categories: List the account's Categories (GetAllCategories) */
  getAllCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Categories', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Categories: Create a Category (AddCategory) */
  addCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Categories', {}, {}, model);
  }
  /** PUT /Categories/{id}: Update a Category (UpdateCategory) */
  updateCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Categories/{id}', { id }, {}, model);
  }
  /** DELETE /Categories/{id}: Delete a Category with its children and attached files (DeleteCategory) */
  deleteCategory(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Categories/{id}', { id }, {});
  }
  /** POST /Categories/{id}/Attachments: Prepare an attached file of a Category: the record (state 0) and a signed URL to PUT its bytes to (AddCategoryAttachment) */
  prepareCategoryAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Categories/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Categories/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddCategoryAttachment); status says which step failed */
  addAttachmentToCategory(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Categories/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Categories/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryCategoryAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Categories/{id}/Attachments', result, file);
  }
  /** GET /Categories/{id}/Attachments: List the attached files of a Category, each with a signed download URL (GetCategoryAttachments) */
  getCategoryAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Categories/{id}/Attachments', { id }, {});
  }
  /** PUT /Categories/{id}/Attachments/{attachedFileId}: Update an attached file of a Category: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateCategoryAttachment) */
  updateCategoryAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Categories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Categories/{id}/Attachments/{attachedFileId}: Delete an attached file of a Category (its bytes go when nothing else refers to them) (DeleteCategoryAttachment) */
  deleteCategoryAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Categories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionTypes/{id}: Get one SessionType (GetSessionTypeById) */
  getSessionTypeById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/SessionTypes/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionTypes: List the account's SessionTypes (GetAllSessionTypes) */
  getAllSessionTypes(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionTypes', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /SessionTypes: Create a SessionType (AddSessionType) */
  addSessionType(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/SessionTypes', {}, {}, model);
  }
  /** PUT /SessionTypes/{id}: Update a SessionType (UpdateSessionType) */
  updateSessionType(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/SessionTypes/{id}', { id }, {}, model);
  }
  /** DELETE /SessionTypes/{id}: Delete a SessionType with its children and attached files (DeleteSessionType) */
  deleteSessionType(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionTypes/{id}', { id }, {});
  }
  /** POST /SessionTypes/{id}/Attachments: Prepare an attached file of a SessionType: the record (state 0) and a signed URL to PUT its bytes to (AddSessionTypeAttachment) */
  prepareSessionTypeAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/SessionTypes/{id}/Attachments', { id }, {}, model);
  }
  /** POST /SessionTypes/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionTypeAttachment); status says which step failed */
  addAttachmentToSessionType(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/SessionTypes/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /SessionTypes/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionTypeAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/SessionTypes/{id}/Attachments', result, file);
  }
  /** GET /SessionTypes/{id}/Attachments: List the attached files of a SessionType, each with a signed download URL (GetSessionTypeAttachments) */
  getSessionTypeAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/SessionTypes/{id}/Attachments', { id }, {});
  }
  /** PUT /SessionTypes/{id}/Attachments/{attachedFileId}: Update an attached file of a SessionType: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionTypeAttachment) */
  updateSessionTypeAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/SessionTypes/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /SessionTypes/{id}/Attachments/{attachedFileId}: Delete an attached file of a SessionType (its bytes go when nothing else refers to them) (DeleteSessionTypeAttachment) */
  deleteSessionTypeAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionTypes/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionStatuses/{id}: Get one SessionStatus (GetSessionStatusById) */
  getSessionStatusById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/SessionStatuses/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionStatuses: List the account's SessionStatuses (GetAllSessionStatuses) */
  getAllSessionStatuses(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionStatuses', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /SessionStatuses: Create a SessionStatus (AddSessionStatus) */
  addSessionStatus(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/SessionStatuses', {}, {}, model);
  }
  /** PUT /SessionStatuses/{id}: Update a SessionStatus (UpdateSessionStatus) */
  updateSessionStatus(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/SessionStatuses/{id}', { id }, {}, model);
  }
  /** DELETE /SessionStatuses/{id}: Delete a SessionStatus with its children and attached files (DeleteSessionStatus) */
  deleteSessionStatus(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionStatuses/{id}', { id }, {});
  }
  /** POST /SessionStatuses/{id}/Attachments: Prepare an attached file of a SessionStatus: the record (state 0) and a signed URL to PUT its bytes to (AddSessionStatusAttachment) */
  prepareSessionStatusAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/SessionStatuses/{id}/Attachments', { id }, {}, model);
  }
  /** POST /SessionStatuses/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionStatusAttachment); status says which step failed */
  addAttachmentToSessionStatus(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/SessionStatuses/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /SessionStatuses/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionStatusAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/SessionStatuses/{id}/Attachments', result, file);
  }
  /** GET /SessionStatuses/{id}/Attachments: List the attached files of a SessionStatus, each with a signed download URL (GetSessionStatusAttachments) */
  getSessionStatusAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/SessionStatuses/{id}/Attachments', { id }, {});
  }
  /** PUT /SessionStatuses/{id}/Attachments/{attachedFileId}: Update an attached file of a SessionStatus: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionStatusAttachment) */
  updateSessionStatusAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/SessionStatuses/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /SessionStatuses/{id}/Attachments/{attachedFileId}: Delete an attached file of a SessionStatus (its bytes go when nothing else refers to them) (DeleteSessionStatusAttachment) */
  deleteSessionStatusAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionStatuses/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /PartCategories/{id}: Get one PartCategory (GetPartCategoryById) */
  getPartCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/PartCategories/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /PartCategories: List the account's PartCategories (GetAllPartCategories) */
  getAllPartCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PartCategories', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /PartCategories: Create a PartCategory (AddPartCategory) */
  addPartCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/PartCategories', {}, {}, model);
  }
  /** PUT /PartCategories/{id}: Update a PartCategory (UpdatePartCategory) */
  updatePartCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/PartCategories/{id}', { id }, {}, model);
  }
  /** DELETE /PartCategories/{id}: Delete a PartCategory with its children and attached files (DeletePartCategory) */
  deletePartCategory(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PartCategories/{id}', { id }, {});
  }
  /** POST /PartCategories/{id}/Attachments: Prepare an attached file of a PartCategory: the record (state 0) and a signed URL to PUT its bytes to (AddPartCategoryAttachment) */
  preparePartCategoryAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/PartCategories/{id}/Attachments', { id }, {}, model);
  }
  /** POST /PartCategories/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddPartCategoryAttachment); status says which step failed */
  addAttachmentToPartCategory(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/PartCategories/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /PartCategories/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryPartCategoryAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/PartCategories/{id}/Attachments', result, file);
  }
  /** GET /PartCategories/{id}/Attachments: List the attached files of a PartCategory, each with a signed download URL (GetPartCategoryAttachments) */
  getPartCategoryAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/PartCategories/{id}/Attachments', { id }, {});
  }
  /** PUT /PartCategories/{id}/Attachments/{attachedFileId}: Update an attached file of a PartCategory: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdatePartCategoryAttachment) */
  updatePartCategoryAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/PartCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /PartCategories/{id}/Attachments/{attachedFileId}: Delete an attached file of a PartCategory (its bytes go when nothing else refers to them) (DeletePartCategoryAttachment) */
  deletePartCategoryAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PartCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /IssueListCategories/{id}: Get one IssueListCategory (GetIssueListCategoryById) */
  getIssueListCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/IssueListCategories/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /IssueListCategories: List the account's IssueListCategories (GetAllIssueListCategories) */
  getAllIssueListCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/IssueListCategories', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /IssueListCategories: Create a IssueListCategory (AddIssueListCategory) */
  addIssueListCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/IssueListCategories', {}, {}, model);
  }
  /** PUT /IssueListCategories/{id}: Update a IssueListCategory (UpdateIssueListCategory) */
  updateIssueListCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/IssueListCategories/{id}', { id }, {}, model);
  }
  /** DELETE /IssueListCategories/{id}: Delete a IssueListCategory with its children and attached files (DeleteIssueListCategory) */
  deleteIssueListCategory(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/IssueListCategories/{id}', { id }, {});
  }
  /** POST /IssueListCategories/{id}/Attachments: Prepare an attached file of a IssueListCategory: the record (state 0) and a signed URL to PUT its bytes to (AddIssueListCategoryAttachment) */
  prepareIssueListCategoryAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/IssueListCategories/{id}/Attachments', { id }, {}, model);
  }
  /** POST /IssueListCategories/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddIssueListCategoryAttachment); status says which step failed */
  addAttachmentToIssueListCategory(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/IssueListCategories/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /IssueListCategories/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryIssueListCategoryAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/IssueListCategories/{id}/Attachments', result, file);
  }
  /** GET /IssueListCategories/{id}/Attachments: List the attached files of a IssueListCategory, each with a signed download URL (GetIssueListCategoryAttachments) */
  getIssueListCategoryAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/IssueListCategories/{id}/Attachments', { id }, {});
  }
  /** PUT /IssueListCategories/{id}/Attachments/{attachedFileId}: Update an attached file of a IssueListCategory: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateIssueListCategoryAttachment) */
  updateIssueListCategoryAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/IssueListCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /IssueListCategories/{id}/Attachments/{attachedFileId}: Delete an attached file of a IssueListCategory (its bytes go when nothing else refers to them) (DeleteIssueListCategoryAttachment) */
  deleteIssueListCategoryAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/IssueListCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /JobListCategories/{id}: Get one JobListCategory (GetJobListCategoryById) */
  getJobListCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/JobListCategories/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /JobListCategories: List the account's JobListCategories (GetAllJobListCategories) */
  getAllJobListCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/JobListCategories', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /JobListCategories: Create a JobListCategory (AddJobListCategory) */
  addJobListCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/JobListCategories', {}, {}, model);
  }
  /** PUT /JobListCategories/{id}: Update a JobListCategory (UpdateJobListCategory) */
  updateJobListCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/JobListCategories/{id}', { id }, {}, model);
  }
  /** DELETE /JobListCategories/{id}: Delete a JobListCategory with its children and attached files (DeleteJobListCategory) */
  deleteJobListCategory(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListCategories/{id}', { id }, {});
  }
  /** POST /JobListCategories/{id}/Attachments: Prepare an attached file of a JobListCategory: the record (state 0) and a signed URL to PUT its bytes to (AddJobListCategoryAttachment) */
  prepareJobListCategoryAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/JobListCategories/{id}/Attachments', { id }, {}, model);
  }
  /** POST /JobListCategories/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddJobListCategoryAttachment); status says which step failed */
  addAttachmentToJobListCategory(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/JobListCategories/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /JobListCategories/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryJobListCategoryAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/JobListCategories/{id}/Attachments', result, file);
  }
  /** GET /JobListCategories/{id}/Attachments: List the attached files of a JobListCategory, each with a signed download URL (GetJobListCategoryAttachments) */
  getJobListCategoryAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/JobListCategories/{id}/Attachments', { id }, {});
  }
  /** PUT /JobListCategories/{id}/Attachments/{attachedFileId}: Update an attached file of a JobListCategory: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateJobListCategoryAttachment) */
  updateJobListCategoryAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/JobListCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /JobListCategories/{id}/Attachments/{attachedFileId}: Delete an attached file of a JobListCategory (its bytes go when nothing else refers to them) (DeleteJobListCategoryAttachment) */
  deleteJobListCategoryAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListCategories/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /JobListTemplates/{id}: Get one JobListTemplate (GetJobListTemplateById) */
  getJobListTemplateById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/JobListTemplates/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /JobListTemplates: List the account's JobListTemplates (GetAllJobListTemplates) */
  getAllJobListTemplates(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/JobListTemplates', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /JobListTemplates: Create a JobListTemplate (AddJobListTemplate) */
  addJobListTemplate(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/JobListTemplates', {}, {}, model);
  }
  /** PUT /JobListTemplates/{id}: Update a JobListTemplate (UpdateJobListTemplate) */
  updateJobListTemplate(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/JobListTemplates/{id}', { id }, {}, model);
  }
  /** DELETE /JobListTemplates/{id}: Delete a JobListTemplate with its children and attached files (DeleteJobListTemplate) */
  deleteJobListTemplate(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListTemplates/{id}', { id }, {});
  }
  /** POST /JobListTemplates/{id}/Attachments: Prepare an attached file of a JobListTemplate: the record (state 0) and a signed URL to PUT its bytes to (AddJobListTemplateAttachment) */
  prepareJobListTemplateAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/JobListTemplates/{id}/Attachments', { id }, {}, model);
  }
  /** POST /JobListTemplates/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddJobListTemplateAttachment); status says which step failed */
  addAttachmentToJobListTemplate(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/JobListTemplates/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /JobListTemplates/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryJobListTemplateAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/JobListTemplates/{id}/Attachments', result, file);
  }
  /** GET /JobListTemplates/{id}/Attachments: List the attached files of a JobListTemplate, each with a signed download URL (GetJobListTemplateAttachments) */
  getJobListTemplateAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/JobListTemplates/{id}/Attachments', { id }, {});
  }
  /** PUT /JobListTemplates/{id}/Attachments/{attachedFileId}: Update an attached file of a JobListTemplate: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateJobListTemplateAttachment) */
  updateJobListTemplateAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/JobListTemplates/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /JobListTemplates/{id}/Attachments/{attachedFileId}: Delete an attached file of a JobListTemplate (its bytes go when nothing else refers to them) (DeleteJobListTemplateAttachment) */
  deleteJobListTemplateAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListTemplates/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /NamedAssemblies/{id}: Get one NamedAssembly (GetNamedAssemblyById) */
  getNamedAssemblyById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/NamedAssemblies/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /NamedAssemblies: List the account's NamedAssemblies (GetAllNamedAssemblies) */
  getAllNamedAssemblies(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/NamedAssemblies', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /NamedAssemblies: Create a NamedAssembly (AddNamedAssembly) */
  addNamedAssembly(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/NamedAssemblies', {}, {}, model);
  }
  /** PUT /NamedAssemblies/{id}: Update a NamedAssembly (UpdateNamedAssembly) */
  updateNamedAssembly(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/NamedAssemblies/{id}', { id }, {}, model);
  }
  /** DELETE /NamedAssemblies/{id}: Delete a NamedAssembly with its children and attached files (DeleteNamedAssembly) */
  deleteNamedAssembly(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/NamedAssemblies/{id}', { id }, {});
  }
  /** POST /NamedAssemblies/{id}/Attachments: Prepare an attached file of a NamedAssembly: the record (state 0) and a signed URL to PUT its bytes to (AddNamedAssemblyAttachment) */
  prepareNamedAssemblyAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/NamedAssemblies/{id}/Attachments', { id }, {}, model);
  }
  /** POST /NamedAssemblies/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddNamedAssemblyAttachment); status says which step failed */
  addAttachmentToNamedAssembly(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/NamedAssemblies/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /NamedAssemblies/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryNamedAssemblyAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/NamedAssemblies/{id}/Attachments', result, file);
  }
  /** GET /NamedAssemblies/{id}/Attachments: List the attached files of a NamedAssembly, each with a signed download URL (GetNamedAssemblyAttachments) */
  getNamedAssemblyAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/NamedAssemblies/{id}/Attachments', { id }, {});
  }
  /** PUT /NamedAssemblies/{id}/Attachments/{attachedFileId}: Update an attached file of a NamedAssembly: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateNamedAssemblyAttachment) */
  updateNamedAssemblyAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/NamedAssemblies/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /NamedAssemblies/{id}/Attachments/{attachedFileId}: Delete an attached file of a NamedAssembly (its bytes go when nothing else refers to them) (DeleteNamedAssemblyAttachment) */
  deleteNamedAssemblyAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/NamedAssemblies/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /CarModels/{id}: Get one CarModel (GetCarModelById) */
  getCarModelById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/CarModels/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /CarModels: List the account's CarModels (GetAllCarModels) */
  getAllCarModels(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/CarModels', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /CarModels: Create a CarModel (AddCarModel) */
  addCarModel(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/CarModels', {}, {}, model);
  }
  /** PUT /CarModels/{id}: Update a CarModel (UpdateCarModel) */
  updateCarModel(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/CarModels/{id}', { id }, {}, model);
  }
  /** DELETE /CarModels/{id}: Delete a CarModel with its children and attached files (DeleteCarModel) */
  deleteCarModel(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/CarModels/{id}', { id }, {});
  }
  /** POST /CarModels/{id}/Attachments: Prepare an attached file of a CarModel: the record (state 0) and a signed URL to PUT its bytes to (AddCarModelAttachment) */
  prepareCarModelAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/CarModels/{id}/Attachments', { id }, {}, model);
  }
  /** POST /CarModels/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddCarModelAttachment); status says which step failed */
  addAttachmentToCarModel(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/CarModels/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /CarModels/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryCarModelAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/CarModels/{id}/Attachments', result, file);
  }
  /** GET /CarModels/{id}/Attachments: List the attached files of a CarModel, each with a signed download URL (GetCarModelAttachments) */
  getCarModelAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/CarModels/{id}/Attachments', { id }, {});
  }
  /** PUT /CarModels/{id}/Attachments/{attachedFileId}: Update an attached file of a CarModel: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateCarModelAttachment) */
  updateCarModelAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/CarModels/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /CarModels/{id}/Attachments/{attachedFileId}: Delete an attached file of a CarModel (its bytes go when nothing else refers to them) (DeleteCarModelAttachment) */
  deleteCarModelAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/CarModels/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Parts/{id}: Get one Part (GetPartById) */
  getPartById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Parts/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Parts: List the account's Parts (GetAllParts) */
  getAllParts(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Parts', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Parts: Create a Part (AddPart) */
  addPart(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Parts', {}, {}, model);
  }
  /** PUT /Parts/{id}: Update a Part (UpdatePart) */
  updatePart(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Parts/{id}', { id }, {}, model);
  }
  /** DELETE /Parts/{id}: Delete a Part with its children and attached files (DeletePart) */
  deletePart(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Parts/{id}', { id }, {});
  }
  /** POST /Parts/{id}/Attachments: Prepare an attached file of a Part: the record (state 0) and a signed URL to PUT its bytes to (AddPartAttachment) */
  preparePartAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Parts/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Parts/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddPartAttachment); status says which step failed */
  addAttachmentToPart(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Parts/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Parts/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryPartAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Parts/{id}/Attachments', result, file);
  }
  /** GET /Parts/{id}/Attachments: List the attached files of a Part, each with a signed download URL (GetPartAttachments) */
  getPartAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Parts/{id}/Attachments', { id }, {});
  }
  /** PUT /Parts/{id}/Attachments/{attachedFileId}: Update an attached file of a Part: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdatePartAttachment) */
  updatePartAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Parts/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Parts/{id}/Attachments/{attachedFileId}: Delete an attached file of a Part (its bytes go when nothing else refers to them) (DeletePartAttachment) */
  deletePartAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Parts/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /PartItems/{id}: Get one PartItem (GetPartItemById) */
  getPartItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/PartItems/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /PartItems?partId=: List PartItems by partId (GetAllPartItemsForPart) */
  getAllPartItemsForPart(partId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PartItems', {}, { partId, ...includeQuery(parametersToInclude) });
  }
  /** POST /PartItems?partId=: Create a PartItem (parent ids in the query or the body) (AddPartItem) */
  addPartItem(partId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/PartItems', {}, { partId }, model);
  }
  /** PUT /PartItems/{id}: Update a PartItem (UpdatePartItem) */
  updatePartItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/PartItems/{id}', { id }, {}, model);
  }
  /** DELETE /PartItems/{id}: Delete a PartItem with its children and attached files (DeletePartItem) */
  deletePartItem(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PartItems/{id}', { id }, {});
  }
  /** POST /PartItems/{id}/Attachments: Prepare an attached file of a PartItem: the record (state 0) and a signed URL to PUT its bytes to (AddPartItemAttachment) */
  preparePartItemAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/PartItems/{id}/Attachments', { id }, {}, model);
  }
  /** POST /PartItems/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddPartItemAttachment); status says which step failed */
  addAttachmentToPartItem(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/PartItems/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /PartItems/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryPartItemAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/PartItems/{id}/Attachments', result, file);
  }
  /** GET /PartItems/{id}/Attachments: List the attached files of a PartItem, each with a signed download URL (GetPartItemAttachments) */
  getPartItemAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/PartItems/{id}/Attachments', { id }, {});
  }
  /** PUT /PartItems/{id}/Attachments/{attachedFileId}: Update an attached file of a PartItem: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdatePartItemAttachment) */
  updatePartItemAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/PartItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /PartItems/{id}/Attachments/{attachedFileId}: Delete an attached file of a PartItem (its bytes go when nothing else refers to them) (DeletePartItemAttachment) */
  deletePartItemAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PartItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TyreSpecifications/{id}: Get one TyreSpecification (GetTyreSpecificationById) */
  getTyreSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreSpecifications/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreSpecifications: List the account's TyreSpecifications (GetAllTyreSpecifications) */
  getAllTyreSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreSpecifications', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreSpecifications: Create a TyreSpecification (AddTyreSpecification) */
  addTyreSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreSpecifications', {}, {}, model);
  }
  /** PUT /TyreSpecifications/{id}: Update a TyreSpecification (UpdateTyreSpecification) */
  updateTyreSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreSpecifications/{id}', { id }, {}, model);
  }
  /** DELETE /TyreSpecifications/{id}: Delete a TyreSpecification with its children and attached files (DeleteTyreSpecification) */
  deleteTyreSpecification(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSpecifications/{id}', { id }, {});
  }
  /** POST /TyreSpecifications/{id}/Attachments: Prepare an attached file of a TyreSpecification: the record (state 0) and a signed URL to PUT its bytes to (AddTyreSpecificationAttachment) */
  prepareTyreSpecificationAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreSpecifications/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreSpecifications/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreSpecificationAttachment); status says which step failed */
  addAttachmentToTyreSpecification(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreSpecifications/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreSpecifications/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreSpecificationAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreSpecifications/{id}/Attachments', result, file);
  }
  /** GET /TyreSpecifications/{id}/Attachments: List the attached files of a TyreSpecification, each with a signed download URL (GetTyreSpecificationAttachments) */
  getTyreSpecificationAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreSpecifications/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreSpecifications/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreSpecification: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreSpecificationAttachment) */
  updateTyreSpecificationAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreSpecifications/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreSpecification (its bytes go when nothing else refers to them) (DeleteTyreSpecificationAttachment) */
  deleteTyreSpecificationAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /BrakeDiscSpecifications/{id}: Get one BrakeDiscSpecification (GetBrakeDiscSpecificationById) */
  getBrakeDiscSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/BrakeDiscSpecifications/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /BrakeDiscSpecifications: List the account's BrakeDiscSpecifications (GetAllBrakeDiscSpecifications) */
  getAllBrakeDiscSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/BrakeDiscSpecifications', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /BrakeDiscSpecifications: Create a BrakeDiscSpecification (AddBrakeDiscSpecification) */
  addBrakeDiscSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/BrakeDiscSpecifications', {}, {}, model);
  }
  /** PUT /BrakeDiscSpecifications/{id}: Update a BrakeDiscSpecification (UpdateBrakeDiscSpecification) */
  updateBrakeDiscSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/BrakeDiscSpecifications/{id}', { id }, {}, model);
  }
  /** DELETE /BrakeDiscSpecifications/{id}: Delete a BrakeDiscSpecification with its children and attached files (DeleteBrakeDiscSpecification) */
  deleteBrakeDiscSpecification(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeDiscSpecifications/{id}', { id }, {});
  }
  /** POST /BrakeDiscSpecifications/{id}/Attachments: Prepare an attached file of a BrakeDiscSpecification: the record (state 0) and a signed URL to PUT its bytes to (AddBrakeDiscSpecificationAttachment) */
  prepareBrakeDiscSpecificationAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/BrakeDiscSpecifications/{id}/Attachments', { id }, {}, model);
  }
  /** POST /BrakeDiscSpecifications/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddBrakeDiscSpecificationAttachment); status says which step failed */
  addAttachmentToBrakeDiscSpecification(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/BrakeDiscSpecifications/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /BrakeDiscSpecifications/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryBrakeDiscSpecificationAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/BrakeDiscSpecifications/{id}/Attachments', result, file);
  }
  /** GET /BrakeDiscSpecifications/{id}/Attachments: List the attached files of a BrakeDiscSpecification, each with a signed download URL (GetBrakeDiscSpecificationAttachments) */
  getBrakeDiscSpecificationAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/BrakeDiscSpecifications/{id}/Attachments', { id }, {});
  }
  /** PUT /BrakeDiscSpecifications/{id}/Attachments/{attachedFileId}: Update an attached file of a BrakeDiscSpecification: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateBrakeDiscSpecificationAttachment) */
  updateBrakeDiscSpecificationAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/BrakeDiscSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /BrakeDiscSpecifications/{id}/Attachments/{attachedFileId}: Delete an attached file of a BrakeDiscSpecification (its bytes go when nothing else refers to them) (DeleteBrakeDiscSpecificationAttachment) */
  deleteBrakeDiscSpecificationAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeDiscSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /BrakePadSpecifications/{id}: Get one BrakePadSpecification (GetBrakePadSpecificationById) */
  getBrakePadSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/BrakePadSpecifications/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /BrakePadSpecifications: List the account's BrakePadSpecifications (GetAllBrakePadSpecifications) */
  getAllBrakePadSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/BrakePadSpecifications', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /BrakePadSpecifications: Create a BrakePadSpecification (AddBrakePadSpecification) */
  addBrakePadSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/BrakePadSpecifications', {}, {}, model);
  }
  /** PUT /BrakePadSpecifications/{id}: Update a BrakePadSpecification (UpdateBrakePadSpecification) */
  updateBrakePadSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/BrakePadSpecifications/{id}', { id }, {}, model);
  }
  /** DELETE /BrakePadSpecifications/{id}: Delete a BrakePadSpecification with its children and attached files (DeleteBrakePadSpecification) */
  deleteBrakePadSpecification(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakePadSpecifications/{id}', { id }, {});
  }
  /** POST /BrakePadSpecifications/{id}/Attachments: Prepare an attached file of a BrakePadSpecification: the record (state 0) and a signed URL to PUT its bytes to (AddBrakePadSpecificationAttachment) */
  prepareBrakePadSpecificationAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/BrakePadSpecifications/{id}/Attachments', { id }, {}, model);
  }
  /** POST /BrakePadSpecifications/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddBrakePadSpecificationAttachment); status says which step failed */
  addAttachmentToBrakePadSpecification(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/BrakePadSpecifications/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /BrakePadSpecifications/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryBrakePadSpecificationAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/BrakePadSpecifications/{id}/Attachments', result, file);
  }
  /** GET /BrakePadSpecifications/{id}/Attachments: List the attached files of a BrakePadSpecification, each with a signed download URL (GetBrakePadSpecificationAttachments) */
  getBrakePadSpecificationAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/BrakePadSpecifications/{id}/Attachments', { id }, {});
  }
  /** PUT /BrakePadSpecifications/{id}/Attachments/{attachedFileId}: Update an attached file of a BrakePadSpecification: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateBrakePadSpecificationAttachment) */
  updateBrakePadSpecificationAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/BrakePadSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /BrakePadSpecifications/{id}/Attachments/{attachedFileId}: Delete an attached file of a BrakePadSpecification (its bytes go when nothing else refers to them) (DeleteBrakePadSpecificationAttachment) */
  deleteBrakePadSpecificationAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakePadSpecifications/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /TyreSets/Search: Search TyreSets by association (POST for clients that cannot send a GET body) (SearchForTyreSetsByPost) */
  searchForTyreSets(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/TyreSets/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /TyreSets/{id}: Get one TyreSet (GetTyreSetById) */
  getTyreSetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreSets/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreSets: List the account's TyreSets (GetAllTyreSets) */
  getAllTyreSets(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreSets', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreSets: Create a TyreSet (AddTyreSet) */
  addTyreSet(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreSets', {}, {}, model);
  }
  /** PUT /TyreSets/{id}: Update a TyreSet (UpdateTyreSet) */
  updateTyreSet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreSets/{id}', { id }, {}, model);
  }
  /** DELETE /TyreSets/{id}: Delete a TyreSet with its children and attached files (DeleteTyreSet) */
  deleteTyreSet(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSets/{id}', { id }, {});
  }
  /** POST /TyreSets/{id}/Attachments: Prepare an attached file of a TyreSet: the record (state 0) and a signed URL to PUT its bytes to (AddTyreSetAttachment) */
  prepareTyreSetAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreSets/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreSets/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreSetAttachment); status says which step failed */
  addAttachmentToTyreSet(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreSets/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreSets/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreSetAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreSets/{id}/Attachments', result, file);
  }
  /** GET /TyreSets/{id}/Attachments: List the attached files of a TyreSet, each with a signed download URL (GetTyreSetAttachments) */
  getTyreSetAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreSets/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreSets/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreSet: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreSetAttachment) */
  updateTyreSetAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreSets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreSets/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreSet (its bytes go when nothing else refers to them) (DeleteTyreSetAttachment) */
  deleteTyreSetAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /BrakeDiscs/Search: Search BrakeDiscs by association (POST for clients that cannot send a GET body) (SearchForBrakeDiscsByPost) */
  searchForBrakeDiscs(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/BrakeDiscs/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /BrakeDiscs/{id}: Get one BrakeDisc (GetBrakeDiscById) */
  getBrakeDiscById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/BrakeDiscs/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /BrakeDiscs: List the account's BrakeDiscs (GetAllBrakeDiscs) */
  getAllBrakeDiscs(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/BrakeDiscs', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /BrakeDiscs: Create a BrakeDisc (AddBrakeDisc) */
  addBrakeDisc(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/BrakeDiscs', {}, {}, model);
  }
  /** PUT /BrakeDiscs/{id}: Update a BrakeDisc (UpdateBrakeDisc) */
  updateBrakeDisc(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/BrakeDiscs/{id}', { id }, {}, model);
  }
  /** DELETE /BrakeDiscs/{id}: Delete a BrakeDisc with its children and attached files (DeleteBrakeDisc) */
  deleteBrakeDisc(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeDiscs/{id}', { id }, {});
  }
  /** POST /BrakeDiscs/{id}/Attachments: Prepare an attached file of a BrakeDisc: the record (state 0) and a signed URL to PUT its bytes to (AddBrakeDiscAttachment) */
  prepareBrakeDiscAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/BrakeDiscs/{id}/Attachments', { id }, {}, model);
  }
  /** POST /BrakeDiscs/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddBrakeDiscAttachment); status says which step failed */
  addAttachmentToBrakeDisc(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/BrakeDiscs/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /BrakeDiscs/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryBrakeDiscAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/BrakeDiscs/{id}/Attachments', result, file);
  }
  /** GET /BrakeDiscs/{id}/Attachments: List the attached files of a BrakeDisc, each with a signed download URL (GetBrakeDiscAttachments) */
  getBrakeDiscAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/BrakeDiscs/{id}/Attachments', { id }, {});
  }
  /** PUT /BrakeDiscs/{id}/Attachments/{attachedFileId}: Update an attached file of a BrakeDisc: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateBrakeDiscAttachment) */
  updateBrakeDiscAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/BrakeDiscs/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /BrakeDiscs/{id}/Attachments/{attachedFileId}: Delete an attached file of a BrakeDisc (its bytes go when nothing else refers to them) (DeleteBrakeDiscAttachment) */
  deleteBrakeDiscAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeDiscs/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /BrakePads/Search: Search BrakePads by association (POST for clients that cannot send a GET body) (SearchForBrakePadsByPost) */
  searchForBrakePads(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/BrakePads/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /BrakePads/{id}: Get one BrakePad (GetBrakePadById) */
  getBrakePadById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/BrakePads/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /BrakePads: List the account's BrakePads (GetAllBrakePads) */
  getAllBrakePads(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/BrakePads', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /BrakePads: Create a BrakePad (AddBrakePad) */
  addBrakePad(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/BrakePads', {}, {}, model);
  }
  /** PUT /BrakePads/{id}: Update a BrakePad (UpdateBrakePad) */
  updateBrakePad(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/BrakePads/{id}', { id }, {}, model);
  }
  /** DELETE /BrakePads/{id}: Delete a BrakePad with its children and attached files (DeleteBrakePad) */
  deleteBrakePad(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakePads/{id}', { id }, {});
  }
  /** POST /BrakePads/{id}/Attachments: Prepare an attached file of a BrakePad: the record (state 0) and a signed URL to PUT its bytes to (AddBrakePadAttachment) */
  prepareBrakePadAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/BrakePads/{id}/Attachments', { id }, {}, model);
  }
  /** POST /BrakePads/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddBrakePadAttachment); status says which step failed */
  addAttachmentToBrakePad(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/BrakePads/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /BrakePads/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryBrakePadAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/BrakePads/{id}/Attachments', result, file);
  }
  /** GET /BrakePads/{id}/Attachments: List the attached files of a BrakePad, each with a signed download URL (GetBrakePadAttachments) */
  getBrakePadAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/BrakePads/{id}/Attachments', { id }, {});
  }
  /** PUT /BrakePads/{id}/Attachments/{attachedFileId}: Update an attached file of a BrakePad: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateBrakePadAttachment) */
  updateBrakePadAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/BrakePads/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /BrakePads/{id}/Attachments/{attachedFileId}: Delete an attached file of a BrakePad (its bytes go when nothing else refers to them) (DeleteBrakePadAttachment) */
  deleteBrakePadAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakePads/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** POST /BrakeSets/Search: Search BrakeSets by association (POST for clients that cannot send a GET body) (SearchForBrakeSetsByPost) */
  searchForBrakeSets(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('POST', '/BrakeSets/Search', {}, { ...includeQuery(parametersToInclude) }, body);
  }
  /** GET /BrakeSets/{id}: Get one BrakeSet (GetBrakeSetById) */
  getBrakeSetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/BrakeSets/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /BrakeSets: List the account's BrakeSets (GetAllBrakeSets) */
  getAllBrakeSets(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/BrakeSets', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /BrakeSets: Create a BrakeSet (AddBrakeSet) */
  addBrakeSet(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/BrakeSets', {}, {}, model);
  }
  /** PUT /BrakeSets/{id}: Update a BrakeSet (UpdateBrakeSet) */
  updateBrakeSet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/BrakeSets/{id}', { id }, {}, model);
  }
  /** DELETE /BrakeSets/{id}: Delete a BrakeSet with its children and attached files (DeleteBrakeSet) */
  deleteBrakeSet(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeSets/{id}', { id }, {});
  }
  /** POST /BrakeSets/{id}/Attachments: Prepare an attached file of a BrakeSet: the record (state 0) and a signed URL to PUT its bytes to (AddBrakeSetAttachment) */
  prepareBrakeSetAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/BrakeSets/{id}/Attachments', { id }, {}, model);
  }
  /** POST /BrakeSets/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddBrakeSetAttachment); status says which step failed */
  addAttachmentToBrakeSet(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/BrakeSets/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /BrakeSets/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryBrakeSetAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/BrakeSets/{id}/Attachments', result, file);
  }
  /** GET /BrakeSets/{id}/Attachments: List the attached files of a BrakeSet, each with a signed download URL (GetBrakeSetAttachments) */
  getBrakeSetAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/BrakeSets/{id}/Attachments', { id }, {});
  }
  /** PUT /BrakeSets/{id}/Attachments/{attachedFileId}: Update an attached file of a BrakeSet: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateBrakeSetAttachment) */
  updateBrakeSetAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/BrakeSets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /BrakeSets/{id}/Attachments/{attachedFileId}: Delete an attached file of a BrakeSet (its bytes go when nothing else refers to them) (DeleteBrakeSetAttachment) */
  deleteBrakeSetAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/BrakeSets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TyreSetPressureAdjustments/{id}: Get one TyreSetPressureAdjustment (GetTyreSetPressureAdjustmentById) */
  getTyreSetPressureAdjustmentById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreSetPressureAdjustments/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreSetPressureAdjustments?tyreSetId=: List TyreSetPressureAdjustments by tyreSetId (GetAllTyreSetPressureAdjustmentsForTyreSet) */
  getAllTyreSetPressureAdjustmentsForTyreSet(tyreSetId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreSetPressureAdjustments', {}, { tyreSetId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreSetPressureAdjustments?tyreSetId=: Create a TyreSetPressureAdjustment (parent ids in the query or the body) (AddTyreSetPressureAdjustment) */
  addTyreSetPressureAdjustment(tyreSetId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreSetPressureAdjustments', {}, { tyreSetId }, model);
  }
  /** PUT /TyreSetPressureAdjustments/{id}: Update a TyreSetPressureAdjustment (UpdateTyreSetPressureAdjustment) */
  updateTyreSetPressureAdjustment(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreSetPressureAdjustments/{id}', { id }, {}, model);
  }
  /** DELETE /TyreSetPressureAdjustments/{id}: Delete a TyreSetPressureAdjustment with its children and attached files (DeleteTyreSetPressureAdjustment) */
  deleteTyreSetPressureAdjustment(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSetPressureAdjustments/{id}', { id }, {});
  }
  /** POST /TyreSetPressureAdjustments/{id}/Attachments: Prepare an attached file of a TyreSetPressureAdjustment: the record (state 0) and a signed URL to PUT its bytes to (AddTyreSetPressureAdjustmentAttachment) */
  prepareTyreSetPressureAdjustmentAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreSetPressureAdjustments/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreSetPressureAdjustments/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreSetPressureAdjustmentAttachment); status says which step failed */
  addAttachmentToTyreSetPressureAdjustment(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreSetPressureAdjustments/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreSetPressureAdjustments/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreSetPressureAdjustmentAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreSetPressureAdjustments/{id}/Attachments', result, file);
  }
  /** GET /TyreSetPressureAdjustments/{id}/Attachments: List the attached files of a TyreSetPressureAdjustment, each with a signed download URL (GetTyreSetPressureAdjustmentAttachments) */
  getTyreSetPressureAdjustmentAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreSetPressureAdjustments/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreSetPressureAdjustments/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreSetPressureAdjustment: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreSetPressureAdjustmentAttachment) */
  updateTyreSetPressureAdjustmentAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreSetPressureAdjustments/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreSetPressureAdjustments/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreSetPressureAdjustment (its bytes go when nothing else refers to them) (DeleteTyreSetPressureAdjustmentAttachment) */
  deleteTyreSetPressureAdjustmentAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreSetPressureAdjustments/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TyreWearSheets/{id}: Get one TyreWearSheet (GetTyreWearSheetById) */
  getTyreWearSheetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreWearSheets/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreWearSheets?eventId=&carId=: List TyreWearSheets by eventId and/or carId (GetAllTyreWearSheetsForEventCar) */
  getAllTyreWearSheetsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreWearSheets', {}, { eventId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreWearSheets?eventId=: List TyreWearSheets by eventId and/or carId (GetAllTyreWearSheetsForEventCar) */
  getAllTyreWearSheetsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreWearSheets', {}, { eventId, ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreWearSheets?carId=: List TyreWearSheets by eventId and/or carId (GetAllTyreWearSheetsForEventCar) */
  getAllTyreWearSheetsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreWearSheets', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreWearSheets?eventId=&carId=: Create a TyreWearSheet (parent ids in the query or the body) (AddTyreWearSheet) */
  addTyreWearSheet(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreWearSheets', {}, { eventId, carId }, model);
  }
  /** PUT /TyreWearSheets/{id}: Update a TyreWearSheet (UpdateTyreWearSheet) */
  updateTyreWearSheet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreWearSheets/{id}', { id }, {}, model);
  }
  /** DELETE /TyreWearSheets/{id}: Delete a TyreWearSheet with its children and attached files (DeleteTyreWearSheet) */
  deleteTyreWearSheet(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearSheets/{id}', { id }, {});
  }
  /** POST /TyreWearSheets/{id}/Attachments: Prepare an attached file of a TyreWearSheet: the record (state 0) and a signed URL to PUT its bytes to (AddTyreWearSheetAttachment) */
  prepareTyreWearSheetAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreWearSheets/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreWearSheets/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreWearSheetAttachment); status says which step failed */
  addAttachmentToTyreWearSheet(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreWearSheets/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreWearSheets/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreWearSheetAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreWearSheets/{id}/Attachments', result, file);
  }
  /** GET /TyreWearSheets/{id}/Attachments: List the attached files of a TyreWearSheet, each with a signed download URL (GetTyreWearSheetAttachments) */
  getTyreWearSheetAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreWearSheets/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreWearSheets/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreWearSheet: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreWearSheetAttachment) */
  updateTyreWearSheetAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreWearSheets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreWearSheets/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreWearSheet (its bytes go when nothing else refers to them) (DeleteTyreWearSheetAttachment) */
  deleteTyreWearSheetAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearSheets/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /TyreWearMeasurementItems/{id}: Get one TyreWearMeasurementItem (GetTyreWearMeasurementItemById) */
  getTyreWearMeasurementItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/TyreWearMeasurementItems/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /TyreWearMeasurementItems?tyreWearMeasurementId=: List TyreWearMeasurementItems by tyreWearMeasurementId (GetAllTyreWearMeasurementItemsForTyreWearMeasurement) */
  getAllTyreWearMeasurementItemsForTyreWearMeasurement(tyreWearMeasurementId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/TyreWearMeasurementItems', {}, { tyreWearMeasurementId, ...includeQuery(parametersToInclude) });
  }
  /** POST /TyreWearMeasurementItems?tyreWearMeasurementId=: Create a TyreWearMeasurementItem (parent ids in the query or the body) (AddTyreWearMeasurementItem) */
  addTyreWearMeasurementItem(tyreWearMeasurementId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/TyreWearMeasurementItems', {}, { tyreWearMeasurementId }, model);
  }
  /** PUT /TyreWearMeasurementItems/{id}: Update a TyreWearMeasurementItem (UpdateTyreWearMeasurementItem) */
  updateTyreWearMeasurementItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TyreWearMeasurementItems/{id}', { id }, {}, model);
  }
  /** DELETE /TyreWearMeasurementItems/{id}: Delete a TyreWearMeasurementItem with its children and attached files (DeleteTyreWearMeasurementItem) */
  deleteTyreWearMeasurementItem(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearMeasurementItems/{id}', { id }, {});
  }
  /** POST /TyreWearMeasurementItems/{id}/Attachments: Prepare an attached file of a TyreWearMeasurementItem: the record (state 0) and a signed URL to PUT its bytes to (AddTyreWearMeasurementItemAttachment) */
  prepareTyreWearMeasurementItemAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/TyreWearMeasurementItems/{id}/Attachments', { id }, {}, model);
  }
  /** POST /TyreWearMeasurementItems/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddTyreWearMeasurementItemAttachment); status says which step failed */
  addAttachmentToTyreWearMeasurementItem(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/TyreWearMeasurementItems/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /TyreWearMeasurementItems/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryTyreWearMeasurementItemAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/TyreWearMeasurementItems/{id}/Attachments', result, file);
  }
  /** GET /TyreWearMeasurementItems/{id}/Attachments: List the attached files of a TyreWearMeasurementItem, each with a signed download URL (GetTyreWearMeasurementItemAttachments) */
  getTyreWearMeasurementItemAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/TyreWearMeasurementItems/{id}/Attachments', { id }, {});
  }
  /** PUT /TyreWearMeasurementItems/{id}/Attachments/{attachedFileId}: Update an attached file of a TyreWearMeasurementItem: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateTyreWearMeasurementItemAttachment) */
  updateTyreWearMeasurementItemAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/TyreWearMeasurementItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /TyreWearMeasurementItems/{id}/Attachments/{attachedFileId}: Delete an attached file of a TyreWearMeasurementItem (its bytes go when nothing else refers to them) (DeleteTyreWearMeasurementItemAttachment) */
  deleteTyreWearMeasurementItemAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/TyreWearMeasurementItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /ReferencePressureRuns/{id}: Get one ReferencePressureRun (GetReferencePressureRunById) */
  getReferencePressureRunById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/ReferencePressureRuns/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /ReferencePressureRuns?sessionId=&carId=: List ReferencePressureRuns by sessionId and/or carId (GetAllReferencePressureRunsForSessionCar) */
  getAllReferencePressureRunsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ReferencePressureRuns', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /ReferencePressureRuns?sessionId=: List ReferencePressureRuns by sessionId and/or carId (GetAllReferencePressureRunsForSessionCar) */
  getAllReferencePressureRunsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ReferencePressureRuns', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /ReferencePressureRuns?carId=: List ReferencePressureRuns by sessionId and/or carId (GetAllReferencePressureRunsForSessionCar) */
  getAllReferencePressureRunsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/ReferencePressureRuns', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /ReferencePressureRuns?sessionId=&carId=: Create a ReferencePressureRun (parent ids in the query or the body) (AddReferencePressureRun) */
  addReferencePressureRun(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/ReferencePressureRuns', {}, { sessionId, carId }, model);
  }
  /** PUT /ReferencePressureRuns/{id}: Update a ReferencePressureRun (UpdateReferencePressureRun) */
  updateReferencePressureRun(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/ReferencePressureRuns/{id}', { id }, {}, model);
  }
  /** DELETE /ReferencePressureRuns/{id}: Delete a ReferencePressureRun with its children and attached files (DeleteReferencePressureRun) */
  deleteReferencePressureRun(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ReferencePressureRuns/{id}', { id }, {});
  }
  /** POST /ReferencePressureRuns/{id}/Attachments: Prepare an attached file of a ReferencePressureRun: the record (state 0) and a signed URL to PUT its bytes to (AddReferencePressureRunAttachment) */
  prepareReferencePressureRunAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/ReferencePressureRuns/{id}/Attachments', { id }, {}, model);
  }
  /** POST /ReferencePressureRuns/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddReferencePressureRunAttachment); status says which step failed */
  addAttachmentToReferencePressureRun(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/ReferencePressureRuns/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /ReferencePressureRuns/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryReferencePressureRunAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/ReferencePressureRuns/{id}/Attachments', result, file);
  }
  /** GET /ReferencePressureRuns/{id}/Attachments: List the attached files of a ReferencePressureRun, each with a signed download URL (GetReferencePressureRunAttachments) */
  getReferencePressureRunAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/ReferencePressureRuns/{id}/Attachments', { id }, {});
  }
  /** PUT /ReferencePressureRuns/{id}/Attachments/{attachedFileId}: Update an attached file of a ReferencePressureRun: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateReferencePressureRunAttachment) */
  updateReferencePressureRunAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/ReferencePressureRuns/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /ReferencePressureRuns/{id}/Attachments/{attachedFileId}: Delete an attached file of a ReferencePressureRun (its bytes go when nothing else refers to them) (DeleteReferencePressureRunAttachment) */
  deleteReferencePressureRunAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ReferencePressureRuns/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /PlannedRuns/{id}: Get one PlannedRun (GetPlannedRunById) */
  getPlannedRunById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/PlannedRuns/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /PlannedRuns?sessionId=&carId=: List PlannedRuns by sessionId and/or carId (GetAllPlannedRunsForSessionCar) */
  getAllPlannedRunsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PlannedRuns', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /PlannedRuns?sessionId=: List PlannedRuns by sessionId and/or carId (GetAllPlannedRunsForSessionCar) */
  getAllPlannedRunsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PlannedRuns', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /PlannedRuns?carId=: List PlannedRuns by sessionId and/or carId (GetAllPlannedRunsForSessionCar) */
  getAllPlannedRunsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PlannedRuns', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /PlannedRuns?sessionId=&carId=: Create a PlannedRun (parent ids in the query or the body) (AddPlannedRun) */
  addPlannedRun(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/PlannedRuns', {}, { sessionId, carId }, model);
  }
  /** PUT /PlannedRuns/{id}: Update a PlannedRun (UpdatePlannedRun) */
  updatePlannedRun(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/PlannedRuns/{id}', { id }, {}, model);
  }
  /** DELETE /PlannedRuns/{id}: Delete a PlannedRun with its children and attached files (DeletePlannedRun) */
  deletePlannedRun(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PlannedRuns/{id}', { id }, {});
  }
  /** POST /PlannedRuns/{id}/Attachments: Prepare an attached file of a PlannedRun: the record (state 0) and a signed URL to PUT its bytes to (AddPlannedRunAttachment) */
  preparePlannedRunAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/PlannedRuns/{id}/Attachments', { id }, {}, model);
  }
  /** POST /PlannedRuns/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddPlannedRunAttachment); status says which step failed */
  addAttachmentToPlannedRun(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/PlannedRuns/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /PlannedRuns/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryPlannedRunAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/PlannedRuns/{id}/Attachments', result, file);
  }
  /** GET /PlannedRuns/{id}/Attachments: List the attached files of a PlannedRun, each with a signed download URL (GetPlannedRunAttachments) */
  getPlannedRunAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/PlannedRuns/{id}/Attachments', { id }, {});
  }
  /** PUT /PlannedRuns/{id}/Attachments/{attachedFileId}: Update an attached file of a PlannedRun: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdatePlannedRunAttachment) */
  updatePlannedRunAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/PlannedRuns/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /PlannedRuns/{id}/Attachments/{attachedFileId}: Delete an attached file of a PlannedRun (its bytes go when nothing else refers to them) (DeletePlannedRunAttachment) */
  deletePlannedRunAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PlannedRuns/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /RunPlans/{id}: Get one RunPlan (GetRunPlanById) */
  getRunPlanById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/RunPlans/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /RunPlans?sessionId=&carId=: List RunPlans by sessionId and/or carId (GetAllRunPlansForSessionCar) */
  getAllRunPlansForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunPlans', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /RunPlans?sessionId=: List RunPlans by sessionId and/or carId (GetAllRunPlansForSessionCar) */
  getAllRunPlansForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunPlans', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /RunPlans?carId=: List RunPlans by sessionId and/or carId (GetAllRunPlansForSessionCar) */
  getAllRunPlansForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/RunPlans', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /RunPlans?sessionId=&carId=: Create a RunPlan (parent ids in the query or the body) (AddRunPlan) */
  addRunPlan(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/RunPlans', {}, { sessionId, carId }, model);
  }
  /** PUT /RunPlans/{id}: Update a RunPlan (UpdateRunPlan) */
  updateRunPlan(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/RunPlans/{id}', { id }, {}, model);
  }
  /** DELETE /RunPlans/{id}: Delete a RunPlan with its children and attached files (DeleteRunPlan) */
  deleteRunPlan(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/RunPlans/{id}', { id }, {});
  }
  /** POST /RunPlans/{id}/Attachments: Prepare an attached file of a RunPlan: the record (state 0) and a signed URL to PUT its bytes to (AddRunPlanAttachment) */
  prepareRunPlanAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/RunPlans/{id}/Attachments', { id }, {}, model);
  }
  /** POST /RunPlans/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddRunPlanAttachment); status says which step failed */
  addAttachmentToRunPlan(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/RunPlans/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /RunPlans/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryRunPlanAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/RunPlans/{id}/Attachments', result, file);
  }
  /** GET /RunPlans/{id}/Attachments: List the attached files of a RunPlan, each with a signed download URL (GetRunPlanAttachments) */
  getRunPlanAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/RunPlans/{id}/Attachments', { id }, {});
  }
  /** PUT /RunPlans/{id}/Attachments/{attachedFileId}: Update an attached file of a RunPlan: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateRunPlanAttachment) */
  updateRunPlanAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/RunPlans/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /RunPlans/{id}/Attachments/{attachedFileId}: Delete an attached file of a RunPlan (its bytes go when nothing else refers to them) (DeleteRunPlanAttachment) */
  deleteRunPlanAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/RunPlans/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /PlannedLaps/{id}: Get one PlannedLap (GetPlannedLapById) */
  getPlannedLapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/PlannedLaps/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /PlannedLaps?plannedRunId=: List PlannedLaps by plannedRunId (GetAllPlannedLapsForPlannedRun) */
  getAllPlannedLapsForPlannedRun(plannedRunId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/PlannedLaps', {}, { plannedRunId, ...includeQuery(parametersToInclude) });
  }
  /** POST /PlannedLaps?plannedRunId=: Create a PlannedLap (parent ids in the query or the body) (AddPlannedLap) */
  addPlannedLap(plannedRunId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/PlannedLaps', {}, { plannedRunId }, model);
  }
  /** PUT /PlannedLaps/{id}: Update a PlannedLap (UpdatePlannedLap) */
  updatePlannedLap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/PlannedLaps/{id}', { id }, {}, model);
  }
  /** DELETE /PlannedLaps/{id}: Delete a PlannedLap with its children and attached files (DeletePlannedLap) */
  deletePlannedLap(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PlannedLaps/{id}', { id }, {});
  }
  /** POST /PlannedLaps/{id}/Attachments: Prepare an attached file of a PlannedLap: the record (state 0) and a signed URL to PUT its bytes to (AddPlannedLapAttachment) */
  preparePlannedLapAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/PlannedLaps/{id}/Attachments', { id }, {}, model);
  }
  /** POST /PlannedLaps/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddPlannedLapAttachment); status says which step failed */
  addAttachmentToPlannedLap(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/PlannedLaps/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /PlannedLaps/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryPlannedLapAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/PlannedLaps/{id}/Attachments', result, file);
  }
  /** GET /PlannedLaps/{id}/Attachments: List the attached files of a PlannedLap, each with a signed download URL (GetPlannedLapAttachments) */
  getPlannedLapAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/PlannedLaps/{id}/Attachments', { id }, {});
  }
  /** PUT /PlannedLaps/{id}/Attachments/{attachedFileId}: Update an attached file of a PlannedLap: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdatePlannedLapAttachment) */
  updatePlannedLapAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/PlannedLaps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /PlannedLaps/{id}/Attachments/{attachedFileId}: Delete an attached file of a PlannedLap (its bytes go when nothing else refers to them) (DeletePlannedLapAttachment) */
  deletePlannedLapAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/PlannedLaps/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /LapMarkers/{id}: Get one LapMarker (GetLapMarkerById) */
  getLapMarkerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/LapMarkers/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /LapMarkers?lapId=: List LapMarkers by lapId (GetAllLapMarkersForLap) */
  getAllLapMarkersForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/LapMarkers', {}, { lapId, ...includeQuery(parametersToInclude) });
  }
  /** POST /LapMarkers?lapId=: Create a LapMarker (parent ids in the query or the body) (AddLapMarker) */
  addLapMarker(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/LapMarkers', {}, { lapId }, model);
  }
  /** PUT /LapMarkers/{id}: Update a LapMarker (UpdateLapMarker) */
  updateLapMarker(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/LapMarkers/{id}', { id }, {}, model);
  }
  /** DELETE /LapMarkers/{id}: Delete a LapMarker with its children and attached files (DeleteLapMarker) */
  deleteLapMarker(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapMarkers/{id}', { id }, {});
  }
  /** POST /LapMarkers/{id}/Attachments: Prepare an attached file of a LapMarker: the record (state 0) and a signed URL to PUT its bytes to (AddLapMarkerAttachment) */
  prepareLapMarkerAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/LapMarkers/{id}/Attachments', { id }, {}, model);
  }
  /** POST /LapMarkers/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddLapMarkerAttachment); status says which step failed */
  addAttachmentToLapMarker(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/LapMarkers/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /LapMarkers/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryLapMarkerAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/LapMarkers/{id}/Attachments', result, file);
  }
  /** GET /LapMarkers/{id}/Attachments: List the attached files of a LapMarker, each with a signed download URL (GetLapMarkerAttachments) */
  getLapMarkerAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/LapMarkers/{id}/Attachments', { id }, {});
  }
  /** PUT /LapMarkers/{id}/Attachments/{attachedFileId}: Update an attached file of a LapMarker: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateLapMarkerAttachment) */
  updateLapMarkerAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/LapMarkers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /LapMarkers/{id}/Attachments/{attachedFileId}: Delete an attached file of a LapMarker (its bytes go when nothing else refers to them) (DeleteLapMarkerAttachment) */
  deleteLapMarkerAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapMarkers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /LapTrackStatusMarkers/{id}: Get one LapTrackStatusMarker (GetLapTrackStatusMarkerById) */
  getLapTrackStatusMarkerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/LapTrackStatusMarkers/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /LapTrackStatusMarkers?lapId=: List LapTrackStatusMarkers by lapId (GetAllLapTrackStatusMarkersForLap) */
  getAllLapTrackStatusMarkersForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/LapTrackStatusMarkers', {}, { lapId, ...includeQuery(parametersToInclude) });
  }
  /** POST /LapTrackStatusMarkers?lapId=: Create a LapTrackStatusMarker (parent ids in the query or the body) (AddLapTrackStatusMarker) */
  addLapTrackStatusMarker(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/LapTrackStatusMarkers', {}, { lapId }, model);
  }
  /** PUT /LapTrackStatusMarkers/{id}: Update a LapTrackStatusMarker (UpdateLapTrackStatusMarker) */
  updateLapTrackStatusMarker(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/LapTrackStatusMarkers/{id}', { id }, {}, model);
  }
  /** DELETE /LapTrackStatusMarkers/{id}: Delete a LapTrackStatusMarker with its children and attached files (DeleteLapTrackStatusMarker) */
  deleteLapTrackStatusMarker(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapTrackStatusMarkers/{id}', { id }, {});
  }
  /** POST /LapTrackStatusMarkers/{id}/Attachments: Prepare an attached file of a LapTrackStatusMarker: the record (state 0) and a signed URL to PUT its bytes to (AddLapTrackStatusMarkerAttachment) */
  prepareLapTrackStatusMarkerAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/LapTrackStatusMarkers/{id}/Attachments', { id }, {}, model);
  }
  /** POST /LapTrackStatusMarkers/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddLapTrackStatusMarkerAttachment); status says which step failed */
  addAttachmentToLapTrackStatusMarker(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/LapTrackStatusMarkers/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /LapTrackStatusMarkers/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryLapTrackStatusMarkerAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/LapTrackStatusMarkers/{id}/Attachments', result, file);
  }
  /** GET /LapTrackStatusMarkers/{id}/Attachments: List the attached files of a LapTrackStatusMarker, each with a signed download URL (GetLapTrackStatusMarkerAttachments) */
  getLapTrackStatusMarkerAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/LapTrackStatusMarkers/{id}/Attachments', { id }, {});
  }
  /** PUT /LapTrackStatusMarkers/{id}/Attachments/{attachedFileId}: Update an attached file of a LapTrackStatusMarker: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateLapTrackStatusMarkerAttachment) */
  updateLapTrackStatusMarkerAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/LapTrackStatusMarkers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /LapTrackStatusMarkers/{id}/Attachments/{attachedFileId}: Delete an attached file of a LapTrackStatusMarker (its bytes go when nothing else refers to them) (DeleteLapTrackStatusMarkerAttachment) */
  deleteLapTrackStatusMarkerAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/LapTrackStatusMarkers/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionObjectIssues/{id}: Get one SessionObjectIssue (GetSessionObjectIssueById) */
  getSessionObjectIssueById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/SessionObjectIssues/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectIssues?sessionId=&carId=: List SessionObjectIssues by sessionId and/or carId (GetAllSessionObjectIssuesForSessionCar) */
  getAllSessionObjectIssuesForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectIssues', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectIssues?sessionId=: List SessionObjectIssues by sessionId and/or carId (GetAllSessionObjectIssuesForSessionCar) */
  getAllSessionObjectIssuesForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectIssues', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectIssues?carId=: List SessionObjectIssues by sessionId and/or carId (GetAllSessionObjectIssuesForSessionCar) */
  getAllSessionObjectIssuesForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectIssues', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /SessionObjectIssues?sessionId=&carId=: Create a SessionObjectIssue (parent ids in the query or the body) (AddSessionObjectIssue) */
  addSessionObjectIssue(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/SessionObjectIssues', {}, { sessionId, carId }, model);
  }
  /** PUT /SessionObjectIssues/{id}: Update a SessionObjectIssue (UpdateSessionObjectIssue) */
  updateSessionObjectIssue(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/SessionObjectIssues/{id}', { id }, {}, model);
  }
  /** DELETE /SessionObjectIssues/{id}: Delete a SessionObjectIssue with its children and attached files (DeleteSessionObjectIssue) */
  deleteSessionObjectIssue(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionObjectIssues/{id}', { id }, {});
  }
  /** POST /SessionObjectIssues/{id}/Attachments: Prepare an attached file of a SessionObjectIssue: the record (state 0) and a signed URL to PUT its bytes to (AddSessionObjectIssueAttachment) */
  prepareSessionObjectIssueAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/SessionObjectIssues/{id}/Attachments', { id }, {}, model);
  }
  /** POST /SessionObjectIssues/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionObjectIssueAttachment); status says which step failed */
  addAttachmentToSessionObjectIssue(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/SessionObjectIssues/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /SessionObjectIssues/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionObjectIssueAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/SessionObjectIssues/{id}/Attachments', result, file);
  }
  /** GET /SessionObjectIssues/{id}/Attachments: List the attached files of a SessionObjectIssue, each with a signed download URL (GetSessionObjectIssueAttachments) */
  getSessionObjectIssueAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/SessionObjectIssues/{id}/Attachments', { id }, {});
  }
  /** PUT /SessionObjectIssues/{id}/Attachments/{attachedFileId}: Update an attached file of a SessionObjectIssue: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionObjectIssueAttachment) */
  updateSessionObjectIssueAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/SessionObjectIssues/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /SessionObjectIssues/{id}/Attachments/{attachedFileId}: Delete an attached file of a SessionObjectIssue (its bytes go when nothing else refers to them) (DeleteSessionObjectIssueAttachment) */
  deleteSessionObjectIssueAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionObjectIssues/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /SessionObjectJobs/{id}: Get one SessionObjectJob (GetSessionObjectJobById) */
  getSessionObjectJobById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/SessionObjectJobs/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectJobs?sessionId=&carId=: List SessionObjectJobs by sessionId and/or carId (GetAllSessionObjectJobsForSessionCar) */
  getAllSessionObjectJobsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectJobs', {}, { sessionId, carId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectJobs?sessionId=: List SessionObjectJobs by sessionId and/or carId (GetAllSessionObjectJobsForSessionCar) */
  getAllSessionObjectJobsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectJobs', {}, { sessionId, ...includeQuery(parametersToInclude) });
  }
  /** GET /SessionObjectJobs?carId=: List SessionObjectJobs by sessionId and/or carId (GetAllSessionObjectJobsForSessionCar) */
  getAllSessionObjectJobsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/SessionObjectJobs', {}, { carId, ...includeQuery(parametersToInclude) });
  }
  /** POST /SessionObjectJobs?sessionId=&carId=: Create a SessionObjectJob (parent ids in the query or the body) (AddSessionObjectJob) */
  addSessionObjectJob(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/SessionObjectJobs', {}, { sessionId, carId }, model);
  }
  /** PUT /SessionObjectJobs/{id}: Update a SessionObjectJob (UpdateSessionObjectJob) */
  updateSessionObjectJob(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/SessionObjectJobs/{id}', { id }, {}, model);
  }
  /** DELETE /SessionObjectJobs/{id}: Delete a SessionObjectJob with its children and attached files (DeleteSessionObjectJob) */
  deleteSessionObjectJob(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionObjectJobs/{id}', { id }, {});
  }
  /** POST /SessionObjectJobs/{id}/Attachments: Prepare an attached file of a SessionObjectJob: the record (state 0) and a signed URL to PUT its bytes to (AddSessionObjectJobAttachment) */
  prepareSessionObjectJobAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/SessionObjectJobs/{id}/Attachments', { id }, {}, model);
  }
  /** POST /SessionObjectJobs/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddSessionObjectJobAttachment); status says which step failed */
  addAttachmentToSessionObjectJob(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/SessionObjectJobs/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /SessionObjectJobs/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retrySessionObjectJobAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/SessionObjectJobs/{id}/Attachments', result, file);
  }
  /** GET /SessionObjectJobs/{id}/Attachments: List the attached files of a SessionObjectJob, each with a signed download URL (GetSessionObjectJobAttachments) */
  getSessionObjectJobAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/SessionObjectJobs/{id}/Attachments', { id }, {});
  }
  /** PUT /SessionObjectJobs/{id}/Attachments/{attachedFileId}: Update an attached file of a SessionObjectJob: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateSessionObjectJobAttachment) */
  updateSessionObjectJobAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/SessionObjectJobs/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /SessionObjectJobs/{id}/Attachments/{attachedFileId}: Delete an attached file of a SessionObjectJob (its bytes go when nothing else refers to them) (DeleteSessionObjectJobAttachment) */
  deleteSessionObjectJobAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/SessionObjectJobs/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /JobListTemplateItems/{id}: Get one JobListTemplateItem (GetJobListTemplateItemById) */
  getJobListTemplateItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/JobListTemplateItems/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /JobListTemplateItems?jobListTemplateId=: List JobListTemplateItems by jobListTemplateId (GetAllJobListTemplateItemsForJobListTemplate) */
  getAllJobListTemplateItemsForJobListTemplate(jobListTemplateId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/JobListTemplateItems', {}, { jobListTemplateId, ...includeQuery(parametersToInclude) });
  }
  /** POST /JobListTemplateItems?jobListTemplateId=: Create a JobListTemplateItem (parent ids in the query or the body) (AddJobListTemplateItem) */
  addJobListTemplateItem(jobListTemplateId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/JobListTemplateItems', {}, { jobListTemplateId }, model);
  }
  /** PUT /JobListTemplateItems/{id}: Update a JobListTemplateItem (UpdateJobListTemplateItem) */
  updateJobListTemplateItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/JobListTemplateItems/{id}', { id }, {}, model);
  }
  /** DELETE /JobListTemplateItems/{id}: Delete a JobListTemplateItem with its children and attached files (DeleteJobListTemplateItem) */
  deleteJobListTemplateItem(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListTemplateItems/{id}', { id }, {});
  }
  /** POST /JobListTemplateItems/{id}/Attachments: Prepare an attached file of a JobListTemplateItem: the record (state 0) and a signed URL to PUT its bytes to (AddJobListTemplateItemAttachment) */
  prepareJobListTemplateItemAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/JobListTemplateItems/{id}/Attachments', { id }, {}, model);
  }
  /** POST /JobListTemplateItems/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddJobListTemplateItemAttachment); status says which step failed */
  addAttachmentToJobListTemplateItem(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/JobListTemplateItems/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /JobListTemplateItems/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryJobListTemplateItemAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/JobListTemplateItems/{id}/Attachments', result, file);
  }
  /** GET /JobListTemplateItems/{id}/Attachments: List the attached files of a JobListTemplateItem, each with a signed download URL (GetJobListTemplateItemAttachments) */
  getJobListTemplateItemAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/JobListTemplateItems/{id}/Attachments', { id }, {});
  }
  /** PUT /JobListTemplateItems/{id}/Attachments/{attachedFileId}: Update an attached file of a JobListTemplateItem: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateJobListTemplateItemAttachment) */
  updateJobListTemplateItemAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/JobListTemplateItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /JobListTemplateItems/{id}/Attachments/{attachedFileId}: Delete an attached file of a JobListTemplateItem (its bytes go when nothing else refers to them) (DeleteJobListTemplateItemAttachment) */
  deleteJobListTemplateItemAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/JobListTemplateItems/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** GET /Users/{id}: Get one User (GetUserById) */
  getUserById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.call('GET', '/Users/{id}', { id }, { ...includeQuery(parametersToInclude) });
  }
  /** GET /Users: List the account's Users (GetAllUsers) */
  getAllUsers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.call('GET', '/Users', {}, { ...includeQuery(parametersToInclude) });
  }
  /** POST /Users: Create a User (AddUser) */
  addUser(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.call('POST', '/Users', {}, {}, model);
  }
  /** PUT /Users/{id}: Update a User (UpdateUser) */
  updateUser(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/Users/{id}', { id }, {}, model);
  }
  /** DELETE /Users/{id}: Delete a User with its children and attached files (DeleteUser) */
  deleteUser(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Users/{id}', { id }, {});
  }
  /** POST /Users/{id}/Attachments: Prepare an attached file of a User: the record (state 0) and a signed URL to PUT its bytes to (AddUserAttachment) */
  prepareUserAttachment(id: string, model: PrepareAttachmentBody): Promise<ClientResult<{ AttachedFileId: string; Url: string; AccountId: string; UserId: string; UseCompression: boolean }>> {
    return this.call('POST', '/Users/{id}/Attachments', { id }, {}, model);
  }
  /** POST /Users/{id}/Attachments, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (AddUserAttachment); status says which step failed */
  addAttachmentToUser(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<AttachmentResult> {
    return this.addAttachment('/Users/{id}/Attachments', accountId, entityId, options, file);
  }
  /** Resumes a failed upload of /Users/{id}/Attachments from the step that failed (a stream already read must be passed again as `file`) */
  retryUserAttachment(result: AttachmentResult, file?: AttachmentSource): Promise<AttachmentResult> {
    return this.retryAttachment('/Users/{id}/Attachments', result, file);
  }
  /** GET /Users/{id}/Attachments: List the attached files of a User, each with a signed download URL (GetUserAttachments) */
  getUserAttachments(id: string): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }[]>> {
    return this.call('GET', '/Users/{id}/Attachments', { id }, {});
  }
  /** PUT /Users/{id}/Attachments/{attachedFileId}: Update an attached file of a User: ServerAttachedFileState 2 finalises an upload (the bytes are checked) (UpdateUserAttachment) */
  updateUserAttachment(id: string, attachedFileId: string, model: UpdateModel): Promise<ClientResult<{ Id: string; Parameters: Record<string, unknown>; SignedURL: string | null }>> {
    return this.call('PUT', '/Users/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {}, model);
  }
  /** DELETE /Users/{id}/Attachments/{attachedFileId}: Delete an attached file of a User (its bytes go when nothing else refers to them) (DeleteUserAttachment) */
  deleteUserAttachment(id: string, attachedFileId: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/Users/{id}/Attachments/{attachedFileId}', { id, attachedFileId }, {});
  }
  /** PUT /TimingIntegration/Runs: Update a RunSheet by index (creates the run on demand) (UpdateTimingRun) */
  updateTimingRun(update: TimingRunUpdate): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TimingIntegration/Runs', {}, {}, update);
  }
  /** PUT /TimingIntegration/Laps: Update a Lap by index (creates the run and the lap on demand) (UpdateTimingLap) */
  updateTimingLap(update: TimingLapUpdate): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TimingIntegration/Laps', {}, {}, update);
  }
  /** PUT /TimingIntegration/Sectors: Update a LapSector by index (creates the run, the lap and the sector on demand) (UpdateTimingSector) */
  updateTimingSector(update: TimingSectorUpdate): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TimingIntegration/Sectors', {}, {}, update);
  }
  /** PUT /TimingIntegration/SpeedTraps: Update a LapSpeedTrap by index (creates the run, the lap and the speed trap on demand) (UpdateTimingSpeedTrap) */
  updateTimingSpeedTrap(update: TimingSpeedTrapUpdate): Promise<ClientResult<EntityJson>> {
    return this.call('PUT', '/TimingIntegration/SpeedTraps', {}, {}, update);
  }
  /** POST /ExternalSimulations/Trigger: Validate each setup and queue a new external simulation for the accepted ones (TriggerExternalSimulations) */
  triggerExternalSimulations(request: TriggerSimulationBody): Promise<ClientResult<SimulationResults>> {
    return this.call('POST', '/ExternalSimulations/Trigger', {}, {}, request);
  }
  /** POST /ExternalSimulations/Reprocess: Reprocess the results of already-run simulations (the study ID read from each setup's parameter) without re-running them (ReprocessExternalSimulations) */
  reprocessExternalSimulations(request: ReprocessSimulationBody): Promise<ClientResult<SimulationResults>> {
    return this.call('POST', '/ExternalSimulations/Reprocess', {}, {}, request);
  }
  /** GET /ExternalSimulations/Status?externalProfileId=&setupIds=: The simulation status of setups, read from the parameters the profile names (setupIds once per setup) (GetExternalSimulationStatus) */
  getExternalSimulationStatus(externalProfileId: string, setupIds: readonly string[]): Promise<ClientResult<SimulationStatusResults>> {
    return this.call('GET', '/ExternalSimulations/Status', {}, { externalProfileId, setupIds });
  }
  /** PUT /ExternalSimulations/Connection: Create or replace the account's connection to the external simulation system (stored encrypted, never returned) (PutExternalSimulationConnection) */
  putExternalSimulationConnection(connection: SimulationConnection): Promise<ClientResult<null>> {
    return this.call('PUT', '/ExternalSimulations/Connection', {}, {}, connection);
  }
  /** POST /ExternalSimulations/Callbacks: Register an HTTP callback for the account's simulation status changes (signed per Standard Webhooks; the secret is in this answer only) (RegisterExternalSimulationCallback) */
  registerExternalSimulationCallback(callback: SimulationCallbackRegistration): Promise<ClientResult<SimulationCallbackCreated>> {
    return this.call('POST', '/ExternalSimulations/Callbacks', {}, {}, callback);
  }
  /** GET /ExternalSimulations/Callbacks: The account's callbacks (no secrets), with their deliveries by state and their recent failures (GetExternalSimulationCallbacks) */
  getExternalSimulationCallbacks(): Promise<ClientResult<SimulationCallbacks>> {
    return this.call('GET', '/ExternalSimulations/Callbacks', {}, {});
  }
  /** DELETE /ExternalSimulations/Callbacks/{id}: Delete a callback; its pending deliveries are dropped (DeleteExternalSimulationCallback) */
  deleteExternalSimulationCallback(id: string): Promise<ClientResult<null>> {
    return this.call('DELETE', '/ExternalSimulations/Callbacks/{id}', { id }, {});
  }
}
