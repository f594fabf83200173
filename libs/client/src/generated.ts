// Generated from the operation table by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.
import type { CreateModel, EntityJson, SearchBody, UpdateModel } from '@pitwall/contracts';
import { ClientBase, includeQuery, type ClientResult, type Include } from './client-base';

/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */
export class PitwallClient extends ClientBase {
  /** GET /Accounts/GetAll: The caller's accounts (AccountId header may be empty here) (GetAllAccounts) */
  getAllAccounts(): Promise<ClientResult<{ Id: string; Name: string }[]>> {
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
}
