// Generated from the operation table by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.
import type { CreateModel, EntityJson, ReprocessSimulationBody, SearchBody, SimulationConnection, SimulationResults, SimulationStatusResults, TriggerSimulationBody, UpdateModel } from '@pitwall/contracts';
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
}
